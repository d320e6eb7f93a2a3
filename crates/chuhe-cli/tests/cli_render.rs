//! `chuhe render`: SVG boards on standard output, and the errors of its flags.

#[allow(dead_code)]
mod common;

use common::{chuhe, fails, ok};

#[test]
fn render_writes_one_svg_document() {
    let svg = ok(&[
        "render",
        "--game",
        "xiangqi",
        "--moves",
        "h3e3 h10g8",
        "--notation",
        "uci",
        "--last-move",
        "--arrows",
        "b1c3, h8h4",
        "--size",
        "500",
    ]);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"500\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("class=\"last-move\"").count(), 2);
    assert_eq!(svg.matches("class=\"arrow\"").count(), 2);
    assert!(svg.contains('炮'), "Chinese characters by default");
    let latin = ok(&["render", "--glyphs", "latin", "--flip"]);
    assert!(latin.contains(">G^<"));
}

#[test]
fn render_refuses_bad_arrows_and_sizes() {
    let err = fails(&["render", "--arrows", "e3"]);
    assert!(
        err.contains("--arrows") && err.contains("two squares"),
        "{err}"
    );
    let err = fails(&["render", "--arrows", "e3z9"]);
    assert!(err.contains("'z9' is not a square"), "{err}");
    let err = fails(&["render", "--game", "xiangqi", "--arrows", "a1a11"]);
    assert!(err.contains("a11"), "{err}");
    // A size out of range is a usage error in clap's words.
    let r = chuhe(&["render", "--size", "0"]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stdout.is_empty() && r.stderr.contains("--size"),
        "{}",
        r.stderr
    );
    let err = fails(&["render", "--moves", "e3-e9"]);
    assert!(err.contains("e3-e9"), "{err}");
}

#[test]
fn render_draws_png_images() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args([
            "render", "--game", "xiangqi", "--format", "png", "--size", "300",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = out.stdout;
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    // The IHDR chunk: width and height, big-endian, after the signature and chunk header.
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!(
        (width, height),
        (300, 330),
        "9×10 points: a little taller than wide"
    );
}
