//! Writing to standard output without panicking: a closed pipe ends the command quietly,
//! any other write error is one line on standard error and exit code 3.

use std::io::{self, Write};
use std::process::ExitCode;

/// Why a command stopped.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: one line on standard error, exit code 2.
    User(String),
    /// Standard output could not be written.
    Write(io::Error),
    /// Stopped early by this signal, its output written: exit code 128 + the signal.
    Interrupted(i32),
}

impl CliError {
    /// A bad-input error with this message.
    pub fn user(message: impl Into<String>) -> CliError {
        CliError::User(message.into())
    }
}

/// Exit code for bad input.
pub const EXIT_USER: u8 = 2;
/// Exit code when standard output cannot be written (other than a closed pipe).
pub const EXIT_WRITE: u8 = 3;

/// Standard output, buffered.
pub struct Output {
    inner: io::BufWriter<io::Stdout>,
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Output {
        Output {
            inner: io::BufWriter::new(io::stdout()),
        }
    }

    /// Writes `text` (buffered).
    pub fn write(&mut self, text: &str) -> Result<(), CliError> {
        self.inner
            .write_all(text.as_bytes())
            .map_err(CliError::Write)
    }

    /// Writes `bytes` (buffered): binary output such as an image.
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        self.inner.write_all(bytes).map_err(CliError::Write)
    }

    /// Writes `text` and flushes, for output that streams as it is computed.
    pub fn write_now(&mut self, text: &str) -> Result<(), CliError> {
        self.write(text)?;
        self.flush()
    }

    /// Flushes what is buffered.
    pub fn flush(&mut self) -> Result<(), CliError> {
        self.inner.flush().map_err(CliError::Write)
    }
}

/// The exit code (and the one line on standard error) for a command's result.
pub fn finish(result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Write(e)) => {
            let _ = writeln!(io::stderr(), "cannot write the output: {e}");
            ExitCode::from(EXIT_WRITE)
        }
        Err(CliError::User(message)) => {
            let _ = writeln!(io::stderr(), "{}", message.replace('\n', " "));
            ExitCode::from(EXIT_USER)
        }
        Err(CliError::Interrupted(signal)) => {
            ExitCode::from(u8::try_from(128 + signal).unwrap_or(u8::MAX))
        }
    }
}
