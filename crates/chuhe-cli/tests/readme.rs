//! The README's console examples, run: every ```` ```console ```` block of README.md is a test.
//!
//! Each `$ COMMAND` line (a line ending in `\` goes on on the next; `$?` is the status of the
//! example before) runs in `bash` with the
//! `chuhe` binary under test first on `PATH`, in one scratch directory for the whole README
//! (so a file written by one example is read by a later one), and what it prints (standard
//! output, then standard error) must match the lines that follow it up to the next `$` line or
//! blank line before one, as snapbox matches: `[..]` stands for any text within a line (times,
//! speeds), `...` alone on a line for any number of lines. Examples that cannot run here (a
//! server, a long match) are written in ```` ```sh ```` blocks instead.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One example: the command line and the output the README shows for it.
struct Example {
    line: usize,
    command: String,
    expected: String,
}

/// The examples of every ```` ```console ```` block, in order.
fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_console = false;
    let mut current: Option<Example> = None;
    let mut continued = false;
    for (i, line) in readme.lines().enumerate() {
        if !in_console {
            in_console = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            in_console = false;
            out.extend(current.take());
            continue;
        }
        let Some(example) = current.as_mut().filter(|_| continued) else {
            if let Some(command) = line.strip_prefix("$ ") {
                out.extend(current.take());
                current = Some(Example {
                    line: i + 1,
                    command: command.trim_end_matches('\\').to_string(),
                    expected: String::new(),
                });
                continued = command.ends_with('\\');
            } else if let Some(example) = current.as_mut() {
                example.expected.push_str(line);
                example.expected.push('\n');
            }
            continue;
        };
        example.command.push(' ');
        example.command.push_str(line.trim().trim_end_matches('\\'));
        continued = line.ends_with('\\');
    }
    for example in &mut out {
        // A blank line between two examples is not part of the first one's output.
        while example.expected.ends_with("\n\n") {
            example.expected.pop();
        }
        if example.expected == "\n" {
            example.expected.clear();
        }
    }
    out
}

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    let root = repository_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(
        examples.len() >= 20,
        "only {} examples found",
        examples.len()
    );
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_chuhe"));
    let bin_dir = binary.parent().unwrap().to_path_buf();
    let scratch = std::env::temp_dir().join(format!("chuhe-readme-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    // The examples that name repository files (data/…) find them through a link.
    let _ = std::os::unix::fs::symlink(root.join("data"), scratch.join("data"));
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    // `$?` in an example is the exit status of the one before it.
    let mut last_status = 0;
    for example in &examples {
        let script = format!("(exit {last_status}); {}", example.command);
        let output = Command::new("bash")
            .args(["-o", "pipefail", "-c", &script])
            .current_dir(&scratch)
            .env("PATH", &path)
            .output()
            .unwrap();
        last_status = output.status.code().unwrap_or(128);
        let mut printed = String::from_utf8_lossy(&output.stdout).into_owned();
        printed.push_str(&String::from_utf8_lossy(&output.stderr));
        let name = format!("README.md line {}: $ {}", example.line, example.command);
        let result = snapbox::Assert::new().try_eq(
            Some(&name),
            snapbox::IntoData::into_data(printed),
            snapbox::IntoData::into_data(example.expected.clone()),
        );
        if let Err(e) = result {
            failures.push(e.to_string());
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        failures.is_empty(),
        "{} of {} README examples print something else:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

#[test]
fn examples_are_read_with_their_continuation_lines_and_outputs() {
    let text = "text\n```console\n$ a \\\n    b\none\n\n$ c\ntwo\n```\n```sh\n$ not run\n```\n";
    let found = examples(text);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].command, "a  b");
    assert_eq!(found[0].expected, "one\n");
    assert_eq!(found[1].command, "c");
    assert_eq!(found[1].expected, "two\n");
}
