//! Ids and secrets: game, seek and player ids (letters and digits without look-alikes) and
//! secret tokens, from the operating system's random generator.

/// Game ids are 1–32 ASCII letters and digits; anything else names no game.
pub fn valid_id(id: &str) -> bool {
    (1..=32).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A random string of `n` letters and digits (no look-alikes): an id.
///
/// ```
/// let id = chuhe_server::ids::random_id(10);
/// assert_eq!(id.len(), 10);
/// assert!(chuhe_server::ids::valid_id(&id));
/// ```
pub fn random_id(n: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut bytes = vec![0u8; n];
    getrandom::getrandom(&mut bytes).expect("the operating system's random generator failed");
    bytes
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// A secret: 128 random bits in hex (a seat's token, an invite code).
pub fn random_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::getrandom(&mut bytes).expect("the operating system's random generator failed");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
