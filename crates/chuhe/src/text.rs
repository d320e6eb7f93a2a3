//! Text helpers for messages and keywords.

/// Input as quoted in an error message: at most 40 characters, longer input cut with `…` and
/// its length, never inside a character (the notation layer's `shorten`).
///
/// ```
/// assert_eq!(chuhe::quote_input("e3e4"), "e3e4");
/// assert!(chuhe::quote_input(&"x".repeat(100)).ends_with("… (100 characters)"));
/// ```
pub use chuhe_notation::error::shorten as quote_input;

/// A single word (letters, digits, `_`, `-`): a keyword, not a FEEN or FEN.
pub(crate) fn is_keyword_like(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
