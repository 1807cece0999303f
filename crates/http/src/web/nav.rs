//! The agent pages' navigation: every page of an agent in a few named sections, so that the
//! whole set fits a laptop and a phone screen without a row that scrolls out of sight. Each
//! page names itself by its `tab`; the header (`agent_head.html`) draws the sections from here.

/// One page of an agent: its `tab` (what the page's template passes), its label and its path
/// under `/agents/{id}`.
pub struct Page {
    pub tab: &'static str,
    pub label: &'static str,
    pub path: &'static str,
}

/// A named group of pages.
pub struct Section {
    pub label: &'static str,
    pub pages: &'static [Page],
}

const fn page(tab: &'static str, label: &'static str, path: &'static str) -> Page {
    Page { tab, label, path }
}

/// Every agent page, grouped; the order is the header's.
pub const SECTIONS: &[Section] = &[
    Section { label: "Overview", pages: &[page("overview", "Overview", "")] },
    Section {
        label: "Conversations",
        pages: &[
            page("chat", "Chat", "/chat"),
            page("outreach", "Outreach", "/outreach"),
            page("proactive", "Check-ins", "/proactive"),
            page("notifications", "Notifications", "/notifications"),
        ],
    },
    Section {
        label: "Memory",
        pages: &[
            page("memories", "Memories", "/memories"),
            page("brain", "Brain", "/brain"),
            page("timeline", "Timeline", "/timeline"),
        ],
    },
    Section { label: "Mind", pages: &[page("soul", "Soul", "/soul"), page("mind", "Mind", "/mind")] },
    Section { label: "Social", pages: &[page("feed", "Feed", "/feed"), page("skills", "Skills", "/skills")] },
    Section {
        label: "Economy",
        pages: &[
            page("economy", "Economy", "/economy"),
            page("wallet", "Wallet", "/wallet"),
            page("poc", "Contribution", "/poc"),
        ],
    },
    Section {
        label: "Connect",
        pages: &[
            page("keys", "API keys", "/keys"),
            page("webhooks", "Webhooks", "/webhooks"),
            page("tools", "Tools", "/tools"),
            page("identity", "Identity", "/identity"),
        ],
    },
    Section {
        label: "Insights",
        pages: &[page("analytics", "Analytics", "/analytics"), page("activity", "Activity", "/activity")],
    },
    Section { label: "Settings", pages: &[page("settings", "Settings", "/settings")] },
];

/// Whether `section` holds the page named `tab`.
pub fn holds(section: &Section, tab: &str) -> bool {
    section.pages.iter().any(|p| p.tab == tab)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_is_in_exactly_one_section_once() {
        let mut seen = std::collections::HashSet::new();
        for s in SECTIONS {
            for p in s.pages {
                assert!(seen.insert(p.tab), "{} listed twice", p.tab);
                assert!(p.path.is_empty() || p.path.starts_with('/'), "{}", p.path);
            }
        }
        assert_eq!(SECTIONS.iter().filter(|s| holds(s, "chat")).count(), 1);
    }
}
