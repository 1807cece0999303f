//! The Markdown the platform writes and shows (API descriptions, the knowledge dossier, souls):
//! headings, bullet lists, paragraphs, `code`, **strong**, *emphasis* and links to http(s) or
//! local paths, rendered to HTML. Everything else is text, escaped: the output is safe to place
//! in a page as it is.

/// Renders `src`: `#`–`###` headings (shown one level down, under the page's own), `- ` or `* `
/// list items, blank-line separated paragraphs.
pub fn markdown(src: &str) -> String {
    let mut out = String::new();
    let mut para: Vec<&str> = Vec::new();
    let mut in_list = false;
    let flush = |para: &mut Vec<&str>, out: &mut String| {
        if !para.is_empty() {
            out.push_str("<p>");
            out.push_str(&inline(&para.join(" ")));
            out.push_str("</p>");
            para.clear();
        }
    };
    for line in src.lines().map(str::trim_end) {
        let t = line.trim_start();
        let item = t.strip_prefix("- ").or_else(|| t.strip_prefix("* "));
        let heading = t.find(|c| c != '#').filter(|&n| (1..=3).contains(&n) && t[n..].starts_with(' '));
        if item.is_none() && in_list {
            out.push_str("</ul>");
            in_list = false;
        }
        if t.is_empty() {
            flush(&mut para, &mut out);
        } else if let Some(n) = heading {
            flush(&mut para, &mut out);
            let level = n + 2;
            out.push_str(&format!("<h{level}>{}</h{level}>", inline(t[n..].trim())));
        } else if let Some(text) = item {
            flush(&mut para, &mut out);
            if !in_list {
                out.push_str("<ul>");
                in_list = true;
            }
            out.push_str(&format!("<li>{}</li>", inline(text.trim())));
        } else {
            para.push(t);
        }
    }
    flush(&mut para, &mut out);
    if in_list {
        out.push_str("</ul>");
    }
    out
}

/// One line of Markdown (a summary, a label): the inline marks only, no paragraph.
pub fn markdown_line(src: &str) -> String {
    inline(&src.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn inline(src: &str) -> String {
    let mut out = String::new();
    let mut rest = src;
    while !rest.is_empty() {
        // A code span: everything up to the closing backtick, escaped, no other markup inside.
        if let Some(after) = rest.strip_prefix('`')
            && let Some(end) = after.find('`')
        {
            out.push_str("<code>");
            out.push_str(&escape(&after[..end]));
            out.push_str("</code>");
            rest = &after[end + 1..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("**")
            && let Some(end) = after.find("**")
        {
            out.push_str("<strong>");
            out.push_str(&inline(&after[..end]));
            out.push_str("</strong>");
            rest = &after[end + 2..];
            continue;
        }
        if let Some(after) = rest.strip_prefix('[')
            && let Some(close) = after.find("](")
            && let Some(end) = after[close + 2..].find(')')
        {
            let url = &after[close + 2..close + 2 + end];
            if url.starts_with("https://") || url.starts_with("http://") || url.starts_with('/') || url.starts_with('#')
            {
                out.push_str(&format!("<a href=\"{}\">{}</a>", escape(url), inline(&after[..close])));
                rest = &after[close + 2 + end + 1..];
                continue;
            }
        }
        if let Some(after) = rest.strip_prefix('*')
            && !after.starts_with(' ')
            && let Some(end) = after.find('*')
            && end > 0
        {
            out.push_str("<em>");
            out.push_str(&inline(&after[..end]));
            out.push_str("</em>");
            rest = &after[end + 1..];
            continue;
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push_str(&escape(&c.to_string()));
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::markdown;

    #[test]
    fn markdown_renders_as_markup_and_nothing_else() {
        assert_eq!(
            markdown("Send `{\"a\": 1}` with **care**; see [the guide](/docs/chat).\n\nA <b>second</b>\none."),
            "<p>Send <code>{&quot;a&quot;: 1}</code> with <strong>care</strong>; see <a href=\"/docs/chat\">the guide</a>.</p>\
             <p>A &lt;b&gt;second&lt;/b&gt; one.</p>"
        );
        assert_eq!(markdown("[x](javascript:alert(1))"), "<p>[x](javascript:alert(1))</p>");
        assert_eq!(markdown("2 * 3 and a lone ` tick"), "<p>2 * 3 and a lone ` tick</p>");
        assert_eq!(
            markdown("# Dana\n## Work\n- nurse at *St. Mary*\n- lives in Lisbon\n\nMore."),
            "<h3>Dana</h3><h4>Work</h4><ul><li>nurse at <em>St. Mary</em></li><li>lives in Lisbon</li></ul><p>More.</p>"
        );
        assert_eq!(markdown("#hashtag and ####four"), "<p>#hashtag and ####four</p>");
    }
}
