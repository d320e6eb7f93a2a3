//! Text helpers for messages.

/// Input as quoted in an error message: at most 40 characters, longer input cut with `…` and
/// its length, never inside a character.
///
/// ```
/// assert_eq!(chuhe::quote_input("e3e4"), "e3e4");
/// assert_eq!(chuhe::quote_input(&"x".repeat(100)), format!("{}… (100 characters)", "x".repeat(40)));
/// ```
pub fn cut(text: &str) -> String {
    const MAX: usize = 40;
    let count = text.chars().count();
    if count <= MAX {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX).collect();
    format!("{head}… ({count} characters)")
}

/// A single word (letters, digits, `_`, `-`): a keyword, not a FEEN or FEN.
pub(crate) fn is_keyword_like(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
