//! Offline fact extraction. Two layers, sentence by sentence:
//! - patterns for the classic statements ("my name is", "I live in", "I want to", "I like /
//!   prefer / hate", dated plans), turned into third-person facts with a category;
//! - for any other first-person statement that carries a fact (pets, family, health, events,
//!   plans, possessions...), the sentence itself, turned into the third person where that is
//!   mechanical ("I'm" → "the user is", "my" → "their", "I work" → "the user works") and kept
//!   verbatim where it is not ("we"), with a category and importance from its words.
//!
//! Small talk stays out: questions, requests, greetings, reactions, passing moods ("I'm so
//! tired today"), hedges ("I think so") and sentences with too few content words.
//!
//! Input: the user's words of the transcript (`roles::Extraction`), or the last user message
//! of the prompt. Output: `{"facts": [{"content", "category", "confidence", "importance"}],
//! "insights": []}`.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fact {
    pub content: String,
    pub category: &'static str,
    pub confidence: f32,
    /// 0–10.
    pub importance: f32,
}

struct Rule {
    pattern: Regex,
    category: &'static str,
    template: &'static str,
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let r = |p: &str, category, template| Rule { pattern: Regex::new(p).expect("static pattern"), category, template };
    vec![
        r(r"(?i)\bmy name is ([\p{L}][\p{L}' -]{0,40}?)(?:\s+and\b|[,.!?;]|$)", "identity", "The user's name is {}"),
        r(
            r"(?i)\b(?:call me|i'?m called) ([\p{L}][\p{L}' -]{0,40}?)(?:\s+and\b|[,.!?;]|$)",
            "identity",
            "The user's name is {}",
        ),
        r(
            r"(?i)\bi (?:live|am living|'m living) in ([\p{L}][\p{L}' .-]{0,60}?)(?:\s+and\b|[,.!?;]|$)",
            "identity",
            "The user lives in {}",
        ),
        r(
            r"(?i)\bi(?:'m| am) from ([\p{L}][\p{L}' .-]{0,60}?)(?:\s+and\b|[,.!?;]|$)",
            "identity",
            "The user is from {}",
        ),
        r(r"(?i)\bi work (?:as|at|for) ([^,.!?;]{2,80})", "identity", "The user works as/at {}"),
        r(r"(?i)\bi(?:'m| am) an? ([\p{L}][\p{L} -]{2,40}?)(?:\s+and\b|[,.!?;]|$)", "identity", "The user is a {}"),
        r(
            r"(?i)\b(?:i want to|i'd like to|i would like to|i plan to|i'm planning to|my goal is to|i hope to) ([^,.!?;]{2,120})",
            "goal",
            "The user wants to {}",
        ),
        r(r"(?i)\bi (?:really )?(?:like|love|enjoy) ([^,.!?;]{2,80})", "interest", "The user likes {}"),
        r(r"(?i)\bi(?:'m| am) (?:interested in|into) ([^,.!?;]{2,80})", "interest", "The user is interested in {}"),
        r(r"(?i)\bi (?:prefer|would rather) ([^,.!?;]{2,80})", "preference", "The user prefers {}"),
        r(
            r"(?i)\bi (?:hate|dislike|can't stand|don't like|do not like) ([^,.!?;]{2,80})",
            "preference",
            "The user dislikes {}",
        ),
        r(
            r"(?i)\b((?:on|this|next) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|month)|tomorrow|tonight|on \d{4}-\d{2}-\d{2}) i (have|am going to|will|'ll) ([^,.!?;]{2,100})",
            "context",
            "{}",
        ),
    ]
});

/// The extraction answer for the user's messages: the facts of each, in order; no insights
/// (they are the assistant's own conclusions, which rules cannot draw).
pub fn facts(texts: &[&str]) -> Value {
    let facts: Vec<Fact> = texts.iter().flat_map(|t| extract(t)).collect();
    json!({ "facts": facts, "insights": [] })
}

/// Facts stated in `text`, in order of appearance, without duplicates.
pub fn extract(text: &str) -> Vec<Fact> {
    let text = text.replace(['’', '‘'], "'");
    let mut facts: Vec<Fact> = Vec::new();
    for sentence in sentences(&text) {
        if chatter(sentence) && !instruction(sentence) {
            continue;
        }
        let mut found = by_rules(sentence);
        if found.is_empty()
            && let Some(f) = statement(sentence)
        {
            found.push(f);
        }
        for f in found {
            if !facts.iter().any(|g| g.content.eq_ignore_ascii_case(&f.content)) {
                facts.push(f);
            }
        }
    }
    facts
}

/// The sentences of a message: split after `.`, `!`, `?` and `;` and at line breaks, keeping
/// the mark (a question is told by its `?`).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in bytes.iter().enumerate() {
        let next_is_space = bytes.get(k + 1).is_none_or(|(_, n)| n.is_whitespace());
        if matches!(c, '\n') || (matches!(c, '.' | '!' | '?' | ';') && next_is_space) {
            let end = i + c.len_utf8();
            let s = text[start..end].trim();
            if !s.is_empty() {
                out.push(s);
            }
            start = end;
        }
    }
    let rest = text[start..].trim();
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// The pattern rules over one sentence.
fn by_rules(sentence: &str) -> Vec<Fact> {
    let mut facts: Vec<(usize, Fact)> = Vec::new();
    for rule in RULES.iter() {
        for caps in rule.pattern.captures_iter(sentence) {
            let start = caps.get(0).map_or(0, |m| m.start());
            let content = if rule.category == "context" {
                let verb = if caps[2].eq_ignore_ascii_case("have") { "has" } else { "will" };
                format!("{} the user {verb} {}", capitalize(caps[1].trim()), caps[3].trim())
            } else {
                let value: Vec<String> =
                    caps[1].trim().trim_end_matches(['.', ' ']).split(' ').map(possessive).collect();
                rule.template.replace("{}", &value.join(" "))
            };
            if !facts.iter().any(|(_, f)| f.content.eq_ignore_ascii_case(&content)) {
                let importance = importance_of(rule.category);
                facts.push((start, Fact { content, category: rule.category, confidence: 0.8, importance }));
            }
        }
    }
    facts.sort_by_key(|(pos, _)| *pos);
    facts.into_iter().map(|(_, f)| f).collect()
}

static FIRST_PERSON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(i|i'm|i've|i'll|i'd|me|my|mine|myself|we|we're|we've|our|us)\b").expect("static pattern")
});

/// What is said in passing: hedges, reactions, requests, moods of the moment, comments on the
/// conversation.
static SMALL_TALK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^\W*(?:(?:oh|ah|well|so|ok|okay|haha|lol|hmm|yeah|yes|no|hey|hi|ugh|wow|right|sure)\W+)*",
        r"(?:",
        // hedges, agreement and comments on the conversation
        r"i (?:think|guess|suppose|believe|agree|see|know|mean|understand|hope)(?: so| not)?(?:\W*$|,| you(?:'re| are)? right| what you mean| that's)",
        r"|i (?:don't|do not|didn't) (?:know|think so|get it|understand|care|mind)",
        r"|i'?m (?:not sure|just (?:kidding|joking|curious|wondering|saying|asking)|back|here|done|ready|confused|lost|kidding)",
        r"|(?:i|we) (?:love|like|hate|enjoyed|appreciate) (?:that|this|it|your|the (?:idea|answer|joke|suggestion))\b",
        r"|thanks?\b|thank you|you'?re (?:right|welcome|the best|funny)",
        // requests to the assistant
        r"|(?:can|could|would|will) you\b|please (?:tell|help|explain|give|write|show|remind|summari[sz]e|make)",
        r"|tell me\b|let me\b|let's\b|help me\b|remind me\b|give me\b|show me\b|i (?:need|want|'d like) you to\b",
        r"|i (?:was|am|'m) (?:just )?wondering",
        r")"
    ))
    .expect("static pattern")
});

/// A mood or state of the moment ("I'm so tired today", "ugh, I'm starving"): true for now,
/// not worth remembering.
static PASSING_STATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(?:i(?:'m| am| feel| was| felt|'m feeling| am feeling)|feeling|my (?:brain|head|legs|feet|back|eyes)(?:'s| is| are| feel))",
        r"(?: (?:so|really|very|a bit|bit|kinda|kind of|super|pretty|totally|just|a little|quite|still|completely|absolutely))* ",
        r"(?:tired|sleepy|bored|hungry|starving|fine|good|ok|okay|great|alright|busy|done|exhausted|excited|happy|sad|",
        r"stressed|annoyed|cold|hot|sore|lazy|full|nervous|anxious|lightheaded|dizzy|fried|dead|knackered|shattered|",
        r"cranky|grumpy|meh|sick|ill|rough|wrecked|drained|overwhelmed|hungover|sleepy|getting a cold|coming down with)\b",
        // the rest is short: a mood, not a story
        r"[^.!?;]{0,40}$"
    ))
    .expect("static pattern")
});

/// Talk about the conversation itself or the next few minutes: "I'll be back later", "wish me
/// luck", "sorry, I keep asking", "I need a nap", a short line that ends in "lol".
static MOMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)(?:\bi'?ll be (?:back|right back|around|off|quick)\b|\bwish me luck\b|\bwe'?ll see\b|^\W*sorry\b",
        r"|\bi (?:don't|do not) (?:really )?(?:want|feel like) (?:to )?talk",
        r"|\bi knew that\b|\bi haven't had (?:my |any )?(?:coffee|tea|breakfast|lunch|dinner)",
        r"|\bi (?:think i )?(?:need|could use) (?:a nap|a break|sleep|coffee|a coffee|food|a drink|a holiday)\b",
        r"|\bi guess\W*$|^(?:\S+\s+){0,7}\S*\s*(?:lol|haha+|lmao|:\)|:d)\W*$)"
    ))
    .expect("static pattern")
});

/// A question, small talk or a passing mood: nothing to remember.
fn chatter(sentence: &str) -> bool {
    let s = sentence.trim();
    s.ends_with('?')
        || SMALL_TALK.is_match(s)
        || PASSING_STATE.is_match(s)
        || (MOMENT.is_match(s) && s.split_whitespace().count() <= 8)
        || crate::chat::triage::is_trivial(s)
}

/// An instruction about how the assistant should answer ("please keep your answers short"):
/// a standing preference even without "I".
static INSTRUCTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^\W*(?:please\W+)?(?:always|never|don't|do not|stop|keep|use|avoid|call me|address me|answer|reply|respond|write|give me|show me|put)\b",
        r"(?:[^?]*)\b(?:answers?|replies|responses|emojis?|units?|format|bullets?|bullet points|language|english|metric|imperial|formal|informal)\b"
    ))
    .expect("static pattern")
});

fn instruction(sentence: &str) -> bool {
    !sentence.ends_with('?') && INSTRUCTION.is_match(sentence)
}

/// A first-person statement that carries a fact, as a fact; `None` for questions, small talk
/// and sentences with too few content words.
fn statement(sentence: &str) -> Option<Fact> {
    let s = sentence.trim();
    if instruction(s) {
        let content = capitalize(s.trim_end_matches(['.', '!', ';']).trim());
        return Some(Fact {
            content,
            category: "preference",
            confidence: 0.8,
            importance: importance_of("preference"),
        });
    }
    if !FIRST_PERSON.is_match(s) {
        return None;
    }
    // Content words besides the pronouns: a fact names something.
    let content = crate::text::content_words(s)
        .into_iter()
        .filter(|w| {
            !matches!(
                w.as_str(),
                "i'm"
                    | "i've"
                    | "i'll"
                    | "i'd"
                    | "we're"
                    | "we've"
                    | "mine"
                    | "us"
                    | "myself"
                    | "really"
                    | "actually"
                    | "btw"
                    | "oh"
                    | "so"
                    | "also"
                    | "lol"
                    | "haha"
            )
        })
        .count();
    if content < 2 || s.split_whitespace().count() < 4 {
        return None;
    }
    let category = category_of(s);
    let content = third_person(s);
    Some(Fact { content, category, confidence: 0.7, importance: importance_of(category) })
}

/// The category a statement's words suggest.
fn category_of(s: &str) -> &'static str {
    static RULES: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
        let r = |c, p: &str| (c, Regex::new(p).expect("static pattern"));
        vec![
            r(
                "preference",
                r"(?i)\b(prefer|rather|favou?rite|please|always|never|don't like|do not like|hate|can't stand|answers?|replies|reply|emojis?|format|units)\b",
            ),
            r(
                "goal",
                r"(?i)\b(want to|plan(ning)? to|goal|hop(e|ing) to|trying to|going to|learning|saving (up )?for|aim|dream of|someday)\b",
            ),
            r(
                "identity",
                r"(?i)\b(name|live|moved|born|years old|birthday|work|job|married|wife|husband|partner|girlfriend|boyfriend|sister|brother|mum|mom|mother|dad|father|son|daughter|kids?|children|dog|cat|pet|allergic|allergy|diabetic|vegan|vegetarian|religion)\b",
            ),
            r(
                "interest",
                r"(?i)\b(like|love|enjoy|hobby|into|fan of|play|playing|collect|reading|watching|listening)\b",
            ),
        ]
    });
    RULES.iter().find(|(_, p)| p.is_match(s)).map_or("context", |(c, _)| c)
}

fn importance_of(category: &str) -> f32 {
    match category {
        "identity" => 7.0,
        "preference" | "goal" => 6.0,
        "interest" => 5.0,
        _ => 4.0,
    }
}

/// The sentence about "the user" where that is mechanical: a leading "I" or "my" and the
/// possessives and objects after it; a sentence about "we" stays as it was said.
fn third_person(s: &str) -> String {
    static LEAD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(?:(?:oh|ah|so|well|btw|by the way|fun fact|anyway|also|update|actually|guess what)\W+)*")
            .expect("static pattern")
    });
    let body = s[LEAD.find(s).map_or(0, |m| m.end())..].trim().trim_end_matches(['.', '!', ';']).trim();
    let words: Vec<&str> = body.split(' ').collect();
    let Some(first) = words.first() else { return s.to_string() };
    let lower_first = first.to_lowercase().replace('’', "'");
    let rest: Vec<String> = words[1..].iter().map(|w| possessive(w)).collect();
    let subject = match lower_first.as_str() {
        "i'm" => Some("The user is".to_string()),
        "i've" => Some("The user has".to_string()),
        "i'll" => Some("The user will".to_string()),
        "i'd" => Some("The user would".to_string()),
        "my" => Some("The user's".to_string()),
        "i" => words.get(1).map(|verb| format!("The user {}", third_person_verb(verb))),
        _ => None,
    };
    match subject {
        Some(subject) => {
            let skip = if lower_first == "i" { 2 } else { 1 };
            let tail: Vec<&String> = rest.iter().skip(skip - 1).collect();
            let joined = tail.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ");
            if joined.is_empty() { subject } else { format!("{subject} {joined}") }
        }
        None => capitalize(body),
    }
}

/// "my" → "their", "me" → "them", "I" → "they" inside a sentence about the user.
fn possessive(word: &str) -> String {
    let (core, tail) =
        word.split_at(word.find(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’').unwrap_or(word.len()));
    let swapped = match core.to_lowercase().replace('’', "'").as_str() {
        "my" => "their",
        "me" => "them",
        "mine" => "theirs",
        "myself" => "themselves",
        "i" => "they",
        "i'm" => "they're",
        "i've" => "they've",
        "i'll" => "they'll",
        "i'd" => "they'd",
        _ => return word.to_string(),
    };
    format!("{swapped}{tail}")
}

/// A verb after "I" as after "the user": past forms and modals stay, the present gets its -s.
fn third_person_verb(verb: &str) -> String {
    let v = verb.to_lowercase();
    let stays = [
        "can", "could", "will", "would", "should", "must", "might", "may", "was", "had", "did", "got", "went", "made",
        "took", "saw", "met", "bought", "sold", "left", "found", "lost", "told", "said", "came", "began", "ran", "won",
        "broke", "fell", "felt", "kept", "brought", "thought", "just", "also", "finally", "recently", "never",
        "always", "still", "really", "usually", "often", "now", "only", "already", "actually",
    ];
    if stays.contains(&v.as_str()) || v.ends_with("ed") || !v.chars().all(|c| c.is_alphabetic()) {
        return verb.to_string();
    }
    match v.as_str() {
        "am" => "is".into(),
        "have" => "has".into(),
        "do" => "does".into(),
        "don't" => "doesn't".into(),
        "go" => "goes".into(),
        _ if v.ends_with('y')
            && !v.ends_with("ay")
            && !v.ends_with("ey")
            && !v.ends_with("oy")
            && !v.ends_with("uy") =>
        {
            format!("{}ies", &verb[..verb.len() - 1])
        }
        _ if ["s", "sh", "ch", "x", "z", "o"].iter().any(|e| v.ends_with(e)) => format!("{verb}es"),
        _ => format!("{verb}s"),
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_facts_from_a_classic_sentence() {
        let facts = extract("My name is Alice and I live in Vienna.");
        assert_eq!(
            facts,
            vec![
                Fact {
                    content: "The user's name is Alice".into(),
                    category: "identity",
                    confidence: 0.8,
                    importance: 7.0
                },
                Fact {
                    content: "The user lives in Vienna".into(),
                    category: "identity",
                    confidence: 0.8,
                    importance: 7.0
                },
            ]
        );
    }

    #[test]
    fn goals_likes_preferences_and_plans() {
        let facts = extract(
            "I want to run a marathon next year. I love jazz, but I hate cilantro. I prefer short answers. Tomorrow I have a dentist appointment.",
        );
        let got: Vec<(&str, &str)> = facts.iter().map(|f| (f.category, f.content.as_str())).collect();
        assert_eq!(
            got,
            vec![
                ("goal", "The user wants to run a marathon next year"),
                ("interest", "The user likes jazz"),
                ("preference", "The user dislikes cilantro"),
                ("preference", "The user prefers short answers"),
                ("context", "Tomorrow the user has a dentist appointment"),
            ]
        );
        assert!(extract("hi there, how are you?").is_empty());
    }

    fn one(text: &str) -> Option<(&'static str, String)> {
        let mut f = extract(text);
        assert!(f.len() <= 1, "{f:?}");
        f.pop().map(|f| (f.category, f.content))
    }

    #[test]
    fn ordinary_statements_become_third_person_facts() {
        for (said, category, fact) in [
            ("My sister Ana just got engaged to Tom!", "identity", "The user's sister Ana just got engaged to Tom"),
            ("I'm allergic to peanuts.", "identity", "The user is allergic to peanuts"),
            (
                "Oh btw I adopted a beagle called Pixel last weekend.",
                "context",
                "The user adopted a beagle called Pixel last weekend",
            ),
            (
                "I run 5k every Tuesday with my neighbour.",
                "context",
                "The user runs 5k every Tuesday with their neighbour",
            ),
            (
                "I've been learning Portuguese on the train.",
                "goal",
                "The user has been learning Portuguese on the train",
            ),
            (
                "Please keep your answers short and skip the emojis.",
                "preference",
                "Please keep your answers short and skip the emojis",
            ),
            ("We bought a used Honda Civic yesterday.", "context", "We bought a used Honda Civic yesterday"),
            ("I love my dog Rex", "interest", "The user likes their dog Rex"),
            ("I hope to visit Japan in spring.", "goal", "The user wants to visit Japan in spring"),
            ("I'm hoping to visit Japan in spring.", "goal", "The user is hoping to visit Japan in spring"),
            ("Use metric units with me, always.", "preference", "Use metric units with me, always"),
            ("Give me times in 24-hour format please.", "preference", "Give me times in 24-hour format please"),
        ] {
            assert_eq!(one(said), Some((category, fact.to_string())), "{said}");
        }
    }

    #[test]
    fn small_talk_questions_and_passing_moods_stay_out() {
        for said in [
            "I'm so tired today",
            "ugh, I'm starving right now",
            "I think so",
            "I guess you're right",
            "I love that idea!",
            "Can you tell me a joke?",
            "What's the capital of Peru?",
            "thanks, that helps a lot",
            "I'm not sure what you mean",
            "haha that's hilarious",
            "I don't know",
            "Where do I live again?",
            "let me think about it",
            "I know, right",
            "I hope so!",
            "I'm a bit nervous about it tbh",
            "my brain is fried today",
            "I'll be back later",
            "sorry, I keep asking you random stuff",
        ] {
            assert_eq!(one(said), None, "{said}");
        }
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn any_message_gives_facts_without_panicking(text in any::<String>()) {
            for f in extract(&text) {
                prop_assert!(!f.content.trim().is_empty());
                prop_assert!((0.0..=10.0).contains(&f.importance));
            }
        }

        #[test]
        fn first_person_words_in_any_order_are_handled(
            words in prop::collection::vec("(I|my|me|I'm|we|the|dog|é|ünïcode|called|Rex|'|’|!|\\?|\\.|;|,|ies|y|es)", 0..14)
        ) {
            let text = words.join(" ");
            for f in extract(&text) {
                prop_assert!(!f.content.trim().is_empty());
            }
        }
    }
}
