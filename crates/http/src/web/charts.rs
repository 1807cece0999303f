//! Charts drawn on the server as SVG: readable without JavaScript, with nothing fetched from
//! elsewhere, each with an accessible title and one `<title>` per point or bar (the browser's
//! hover text). Every label is escaped here, so a chart can be put into a page as it is.

use std::fmt::Write;

const W: f64 = 640.0;
const H: f64 = 220.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 30.0;
const COLORS: [&str; 4] = ["#4c6ef5", "#f76707", "#2f9e44", "#ae3ec9"];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// A readable number: 1234 → "1,234", 0.00123 → "0.00123", 12.5 → "12.5".
pub fn num(v: impl std::borrow::Borrow<f64>) -> String {
    let v = *v.borrow();
    if v == 0.0 {
        return "0".into();
    }
    if v.abs() >= 1000.0 {
        let n = v.round() as i64;
        let s = n.abs().to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        if n < 0 { format!("-{out}") } else { out }
    } else if v.abs() >= 10.0 || v == 0.0 {
        format!("{}", (v * 10.0).round() / 10.0)
    } else {
        let s = format!("{v:.5}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The top of an axis with four steps at or above `max`, each a round number (1, 2, 2.5 or 5
/// times a power of ten), so that the ticks read 0, 5, 10, 15, 20 rather than 4.125, 8.25, ….
pub fn nice_max(max: f64) -> f64 {
    if max.is_nan() || max <= 0.0 || max.is_infinite() {
        return 1.0;
    }
    let raw = max / 4.0;
    let power = 10f64.powf(raw.log10().floor());
    let step =
        [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * power).find(|s| *s >= raw * (1.0 - 1e-9)).unwrap_or(10.0 * power);
    step * 4.0
}

/// The comparison's metrics in words, with what each counts.
pub fn metric_label(metric: &str) -> (String, &'static str) {
    let (label, what) = match metric {
        "avg_cost_per_message" => ("Cost per message", "model spend divided by the messages answered"),
        "total_cost_usd" => ("Model spend", "in US dollars, at the providers' prices"),
        "avg_latency_ms" => ("Reply time", "milliseconds from message to complete reply, on average"),
        "avg_triage_ms" => ("Triage time", "milliseconds spent deciding what a message needs"),
        "extraction_rate" => ("Messages that taught it something", "share of messages memories were taken from"),
        "avg_facts_per_extraction" => ("Facts per lesson", "memories taken from one message, on average"),
        "dedup_exact_match_rate" => {
            ("Facts it already knew word for word", "share of new facts dropped as exact repeats")
        }
        "dedup_llm_new_rate" => ("Facts that were new", "share of new facts stored as new memories"),
        "dedup_llm_update_rate" => ("Facts that updated a memory", "share of new facts that changed what it knew"),
        "dedup_llm_duplicate_rate" => ("Facts it already knew", "share of new facts found to say what a memory says"),
        "dedup_no_existing_rate" => ("Facts on a new subject", "share of new facts with nothing similar stored"),
        "avg_quality_score" => ("Reply quality", "the daily evaluation's score out of 10"),
        "total_messages" => ("Messages", "messages the agent received"),
        "triage_skip_rate" => ("Quick replies", "share of messages answered without the full pipeline"),
        other => return (other.replace('_', " "), ""),
    };
    (label.to_string(), what)
}

/// One line of a line chart.
pub struct Line<'a> {
    pub label: &'a str,
    /// One value per x label; `None` leaves a gap.
    pub values: Vec<Option<f64>>,
}

fn frame(out: &mut String, id: &str, title: &str, max: f64, unit: &str) {
    let _ = write!(
        out,
        r#"<svg class="chart" viewBox="0 0 {W} {H}" role="img" aria-labelledby="{id}-t" data-testid="chart-{id}"><title id="{id}-t">{}</title>"#,
        esc(title)
    );
    for i in 0..=4 {
        let y = TOP + (H - TOP - BOTTOM) * f64::from(i) / 4.0;
        let v = max * f64::from(4 - i) / 4.0;
        let _ = write!(
            out,
            r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#e9ecef"/><text x="{}" y="{:.1}" text-anchor="end" class="axis">{}{}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            num(v),
            esc(unit)
        );
    }
}

/// A line chart over `x` (one label per point; a few are printed under the axis).
pub fn line_chart(id: &str, title: &str, unit: &str, x: &[String], lines: &[Line]) -> String {
    let max = lines.iter().flat_map(|l| l.values.iter().flatten()).fold(0.0f64, |m, v| m.max(*v));
    let max = nice_max(max);
    let mut out = String::new();
    frame(&mut out, id, title, max, unit);
    let n = x.len().max(1);
    let px = |i: usize| LEFT + (W - LEFT - RIGHT) * if n == 1 { 0.5 } else { i as f64 / (n - 1) as f64 };
    let py = |v: f64| TOP + (H - TOP - BOTTOM) * (1.0 - v / max);
    let every = n.div_ceil(8);
    let last_printed = (n - 1) / every * every;
    for (i, label) in x.iter().enumerate() {
        // Every `every`-th label, and the last one when it does not crowd the one before.
        if i.is_multiple_of(every) || (i + 1 == n && 2 * (i - last_printed) >= every) {
            let _ = write!(
                out,
                r#"<text x="{:.1}" y="{}" text-anchor="middle" class="axis">{}</text>"#,
                px(i),
                H - 8.0,
                esc(label)
            );
        }
    }
    for (k, line) in lines.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let mut path = String::new();
        let mut pen_down = false;
        for (i, v) in line.values.iter().enumerate() {
            match v {
                Some(v) => {
                    let _ = write!(path, "{}{:.1},{:.1} ", if pen_down { "L" } else { "M" }, px(i), py(*v));
                    pen_down = true;
                }
                None => pen_down = false,
            }
        }
        let _ = write!(
            out,
            r#"<g data-series="{}"><path d="{}" fill="none" stroke="{color}" stroke-width="2"/>"#,
            esc(line.label),
            path.trim_end()
        );
        for (i, v) in line.values.iter().enumerate() {
            if let Some(v) = v {
                let _ = write!(
                    out,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{color}"><title>{} · {}: {}{}</title></circle>"#,
                    px(i),
                    py(*v),
                    esc(x.get(i).map_or("", String::as_str)),
                    esc(line.label),
                    num(*v),
                    esc(unit)
                );
            }
        }
        out.push_str("</g>");
    }
    if lines.len() > 1 {
        for (k, line) in lines.iter().enumerate() {
            let x = LEFT + 8.0 + 110.0 * k as f64;
            let _ = write!(
                out,
                r#"<rect x="{x}" y="2" width="10" height="10" fill="{}"/><text x="{}" y="11" class="axis">{}</text>"#,
                COLORS[k % COLORS.len()],
                x + 14.0,
                esc(line.label)
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// A horizontal bar chart of counts, largest first.
pub fn bar_chart(id: &str, title: &str, bars: &[(String, f64)]) -> String {
    let mut bars: Vec<&(String, f64)> = bars.iter().collect();
    bars.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let row = 22.0;
    let height = (bars.len().max(1) as f64) * row + 8.0;
    let max = nice_max(bars.iter().map(|b| b.1).fold(0.0f64, f64::max).max(1.0));
    let label_w = 150.0;
    let mut out = format!(
        r#"<svg class="chart bars" viewBox="0 0 {W} {height}" role="img" aria-labelledby="{id}-t" data-testid="chart-{id}"><title id="{id}-t">{}</title>"#,
        esc(title)
    );
    if bars.is_empty() {
        let _ = write!(out, r#"<text x="8" y="18" class="axis">No data in this range.</text>"#);
    }
    for (i, (label, v)) in bars.iter().enumerate() {
        let y = 4.0 + row * i as f64;
        let w = (W - label_w - 70.0) * v / max;
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" class="axis">{l}</text><rect class="bar" x="{label_w}" y="{y:.1}" width="{w:.1}" height="{:.1}" fill="#4c6ef5"><title>{l}: {n}</title></rect><text x="{:.1}" y="{:.1}" class="axis">{n}</text>"##,
            label_w - 6.0,
            y + 14.0,
            row - 6.0,
            label_w + w + 6.0,
            y + 14.0,
            l = esc(label),
            n = num(*v),
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod nice_tests {
    use super::nice_max;

    #[test]
    fn axes_step_in_round_numbers() {
        for (max, top) in [(7.5, 8.0), (15.0, 20.0), (0.37, 0.4), (9.0, 10.0), (1234.0, 2000.0), (0.0, 1.0)] {
            assert!((nice_max(max) - top).abs() < 1e-9, "{max}: {}", nice_max(max));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_escape_labels_and_draw_one_mark_per_value() {
        let x: Vec<String> = (1..=5).map(|d| format!("10-0{d}")).collect();
        let svg = line_chart(
            "m",
            "Messages <per day>",
            "",
            &x,
            &[Line { label: "p50", values: vec![Some(1.0), None, Some(3.0), Some(2.0), Some(0.0)] }],
        );
        assert_eq!(svg.matches("<circle").count(), 4, "a gap draws nothing");
        assert!(svg.contains("Messages &lt;per day&gt;") && !svg.contains("<per day>"));
        assert!(svg.contains("M") && svg.contains(r#"role="img""#));
        let bars = bar_chart("i", "Intents", &[("q".into(), 6.0), ("<b>".into(), 4.0)]);
        assert_eq!(bars.matches(r#"class="bar""#).count(), 2);
        assert!(bars.contains("&lt;b&gt;") && bars.find("q:").unwrap() < bars.find("&lt;b&gt;:").unwrap());
        assert_eq!(num(1234.4), "1,234");
        assert_eq!(num(0.00125), "0.00125");
        assert_eq!(num(12.25), "12.3");
        assert_eq!(num(0.0), "0");
    }
}
