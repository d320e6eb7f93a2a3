//! The records of a PCN file of many games, read one at a time from a stream: a PCN file
//! holds JSON records written one after another (whitespace between them, none needed), and
//! only the record being read is in memory.
//!
//! The splitter follows JSON's braces and strings to find where each record ends; what a
//! record says is checked later ([`crate::record::read`]), so one malformed record does not
//! end the file: the next one is still found.
//!
//! ```
//! let file = "{\"setup\": \"a\"}\n{\"setup\": \"b\", \"moves\": []}";
//! let texts: Vec<_> = chuhe::record_stream::texts(file.as_bytes())
//!     .map(|t| t.unwrap())
//!     .collect();
//! assert_eq!((texts[1].index, texts[1].line, texts[1].column), (2, 2, 1));
//! assert_eq!(texts[1].text, "{\"setup\": \"b\", \"moves\": []}");
//! ```

use std::io::BufRead;

/// One record's text and where it starts in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordText {
    /// The record's number in the file, from 1.
    pub index: usize,
    /// The line of its opening brace, from 1.
    pub line: usize,
    /// The column of its opening brace, from 1, in characters.
    pub column: usize,
    /// The record, from its `{` to its `}`.
    pub text: String,
}

/// Why the file could not be split further: its place and the reason. Nothing after it is
/// read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("PCN line {line}, column {column}: {message}")]
pub struct SplitError {
    /// The number the record would have, from 1.
    pub index: usize,
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
    /// What was wrong.
    pub message: String,
}

/// The records of `reader`, in order (a byte-order mark at the start is skipped). An empty
/// file gives one error ("holds no record").
pub fn texts<R: BufRead>(reader: R) -> RecordTexts<R> {
    RecordTexts {
        reader,
        line: 1,
        column: 1,
        index: 0,
        at_start: true,
        done: false,
    }
}

/// The iterator of [`texts`].
pub struct RecordTexts<R> {
    reader: R,
    line: usize,
    column: usize,
    index: usize,
    at_start: bool,
    done: bool,
}

/// Where the scan of one record stands.
#[derive(Default)]
struct Scan {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Scan {
    /// Takes one byte of the record; true when it closed the record.
    fn take(&mut self, b: u8) -> bool {
        if self.in_string {
            match (self.escaped, b) {
                (true, _) => self.escaped = false,
                (false, b'\\') => self.escaped = true,
                (false, b'"') => self.in_string = false,
                _ => {}
            }
            return false;
        }
        match b {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                return self.depth == 0;
            }
            _ => {}
        }
        false
    }
}

impl<R: BufRead> RecordTexts<R> {
    /// Moves the line and column past byte `b` (columns count characters: a UTF-8
    /// continuation byte does not move it).
    fn advance(&mut self, b: u8) {
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if b & 0xC0 != 0x80 {
            self.column += 1;
        }
    }

    fn fail(
        &mut self,
        line: usize,
        column: usize,
        message: String,
    ) -> Option<Result<RecordText, SplitError>> {
        self.done = true;
        Some(Err(SplitError {
            index: self.index + 1,
            line,
            column,
            message,
        }))
    }

    fn next_record(&mut self) -> Option<Result<RecordText, SplitError>> {
        // Up to the record's `{`.
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) => return self.fail(self.line, self.column, format!("cannot read: {e}")),
            };
            if buf.is_empty() {
                self.done = true;
                if self.index == 0 {
                    return self.fail(1, 1, "PCN: the text holds no record".into());
                }
                return None;
            }
            if self.at_start {
                self.at_start = false;
                if buf.starts_with("\u{feff}".as_bytes()) {
                    self.reader.consume(3);
                    continue;
                }
            }
            let skip = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let found = buf.get(skip).copied();
            for &b in &buf[..skip] {
                if b == b'\n' {
                    self.line += 1;
                    self.column = 1;
                } else {
                    self.column += 1;
                }
            }
            self.reader.consume(skip);
            match found {
                None => continue,
                Some(b'{') => break,
                Some(_) => {
                    let shown = self.peek_char();
                    return self.fail(
                        self.line,
                        self.column,
                        format!("expected '{{' to start a record, found {shown}"),
                    );
                }
            }
        }
        let (line, column) = (self.line, self.column);
        let mut bytes = Vec::new();
        let mut scan = Scan::default();
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) => return self.fail(self.line, self.column, format!("cannot read: {e}")),
            };
            if buf.is_empty() {
                return self.fail(
                    line,
                    column,
                    "the record that starts here is not closed (no matching '}')".into(),
                );
            }
            let mut end = None;
            for (i, &b) in buf.iter().enumerate() {
                if scan.take(b) {
                    end = Some(i + 1);
                    break;
                }
            }
            let taken = end.unwrap_or(buf.len());
            bytes.extend_from_slice(&buf[..taken]);
            self.reader.consume(taken);
            if end.is_some() {
                break;
            }
        }
        for &b in &bytes {
            self.advance(b);
        }
        self.index += 1;
        match String::from_utf8(bytes) {
            Ok(text) => Some(Ok(RecordText {
                index: self.index,
                line,
                column,
                text,
            })),
            Err(e) => {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let text = String::from_utf8_lossy(valid);
                let at_line = line + text.matches('\n').count();
                let at_column = match text.rfind('\n') {
                    Some(i) => text[i + 1..].chars().count() + 1,
                    None => column + text.chars().count(),
                };
                self.index -= 1;
                self.fail(at_line, at_column, "the record is not UTF-8 text".into())
            }
        }
    }

    /// The character at the reader's position, quoted, for a message.
    fn peek_char(&mut self) -> String {
        let buf = self.reader.fill_buf().unwrap_or(&[]);
        let n = buf.len().min(4);
        let shown = (1..=n)
            .find_map(|k| std::str::from_utf8(&buf[..k]).ok())
            .and_then(|s| s.chars().next());
        match shown {
            Some(c) => format!("'{c}'"),
            None => "a byte that is not UTF-8 text".into(),
        }
    }
}

impl<R: BufRead> Iterator for RecordTexts<R> {
    type Item = Result<RecordText, SplitError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.next_record()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &[u8]) -> Vec<Result<RecordText, SplitError>> {
        texts(std::io::BufReader::with_capacity(3, text)).collect()
    }

    #[test]
    fn records_are_found_across_buffer_boundaries_with_their_places() {
        let file = "\u{feff}{\"a\": \"}{\\\"\"}  {\"b\": [{}, {\"c\": \"車\"}]}\n\n  {}";
        let found: Vec<RecordText> = split(file.as_bytes())
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].text, "{\"a\": \"}{\\\"\"}");
        assert_eq!((found[0].line, found[0].column), (1, 1));
        assert_eq!(found[1].text, "{\"b\": [{}, {\"c\": \"車\"}]}");
        assert_eq!((found[1].line, found[1].column), (1, 16));
        assert_eq!((found[2].index, found[2].line, found[2].column), (3, 3, 3));
    }

    #[test]
    fn malformed_files_are_errors_with_their_place() {
        let empty = split(b"  \n ");
        assert_eq!(empty.len(), 1);
        assert_eq!(
            empty[0].as_ref().unwrap_err().message,
            "PCN: the text holds no record"
        );
        let unclosed = split(b"{}\n  {\"a\": [1, 2}");
        assert!(unclosed[0].is_ok());
        let e = unclosed[1].as_ref().unwrap_err();
        assert_eq!((e.index, e.line, e.column), (2, 2, 3));
        assert!(e.message.contains("not closed"), "{e}");
        let garbage = split("{}\nx車".as_bytes());
        let e = garbage[1].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert_eq!(e.message, "expected '{' to start a record, found 'x'");
        assert_eq!(garbage.len(), 2, "nothing is read after an error");
        let bad_utf8 = split(b"{\"a\":\n \"\xff\"}");
        let e = bad_utf8[0].as_ref().unwrap_err();
        assert_eq!((e.index, e.line, e.column), (1, 2, 3));
    }
}
