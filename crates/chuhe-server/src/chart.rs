//! A rating chart as a small self-contained SVG picture: the rating after each rated game,
//! with the lowest and highest ratings and the first and last dates written beside it.
//! Numbers and dates only, so it needs no translation.

/// The chart of `points` (`(ms since the epoch, rating)`, in order), `width` × `height`
/// pixels.
///
/// ```
/// let svg = chuhe_server::chart::rating_chart(&[(0, 1500.0), (86_400_000, 1520.6)], 300, 120);
/// assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
/// assert!(svg.contains(">1521<") && svg.contains(">1500<"));
/// ```
pub fn rating_chart(points: &[(i64, f64)], width: u32, height: u32) -> String {
    let (w, h) = (f64::from(width), f64::from(height));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" class=\"rating-chart\" role=\"img\">"
    );
    out.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#fbf7ee\" \
         stroke=\"#d9cfbd\"/>"
    ));
    if points.is_empty() {
        out.push_str("</svg>");
        return out;
    }
    let low = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let high = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let span = (high - low).max(20.0);
    let (left, right, top, bottom) = (44.0, 8.0, 10.0, 22.0);
    let x = |i: usize| {
        if points.len() == 1 {
            left + (w - left - right) / 2.0
        } else {
            left + (w - left - right) * i as f64 / (points.len() - 1) as f64
        }
    };
    let y = |r: f64| top + (h - top - bottom) * (1.0 - (r - low) / span);
    let line: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.1)))
        .collect();
    out.push_str(&format!(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#a33a2a\" stroke-width=\"2\"/>",
        line.join(" ")
    ));
    if let Some(last) = points.last() {
        let i = points.len() - 1;
        out.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#a33a2a\"/>",
            x(i),
            y(last.1)
        ));
    }
    let label = |text: String, x: f64, y: f64, anchor: &str| {
        format!(
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"11\" font-family=\"sans-serif\" \
             fill=\"#5b5040\" text-anchor=\"{anchor}\">{text}</text>"
        )
    };
    out.push_str(&label(
        format!("{:.0}", high),
        left - 4.0,
        y(high) + 4.0,
        "end",
    ));
    out.push_str(&label(
        format!("{:.0}", low),
        left - 4.0,
        y(low) + 4.0,
        "end",
    ));
    let date = |ms: i64| crate::archive::iso_datetime(ms)[..10].to_string();
    out.push_str(&label(date(points[0].0), left, h - 6.0, "start"));
    if points.len() > 1 {
        out.push_str(&label(
            date(points[points.len() - 1].0),
            w - right,
            h - 6.0,
            "end",
        ));
    }
    out.push_str("</svg>");
    out
}
