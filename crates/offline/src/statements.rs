//! What a single sentence of a user's message carries, for offline extraction: small talk and
//! questions stay out (hedges, reactions, requests, passing moods, talk about the next few
//! minutes); any other first-person statement that carries a fact (pets, family, health,
//! events, plans, possessions...) becomes a fact, turned into the third person where that is
//! mechanical ("I'm" → "the user is", "my" → "their", "I work" → "the user works") and kept
//! verbatim where it is not ("we"), with a category and importance from its words.
//! Instructions about the answers ("keep your answers short") are preferences.

use std::sync::LazyLock;

use regex::Regex;

use super::extraction::{Fact, capitalize, importance_of};

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
pub(super) fn chatter(sentence: &str) -> bool {
    let s = sentence.trim();
    s.ends_with('?')
        || SMALL_TALK.is_match(s)
        || PASSING_STATE.is_match(s)
        || (MOMENT.is_match(s) && s.split_whitespace().count() <= 8)
        || miniclaw_domain::chat::triage::is_trivial(s)
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

pub(super) fn instruction(sentence: &str) -> bool {
    !sentence.ends_with('?') && INSTRUCTION.is_match(sentence)
}

/// A first-person statement that carries a fact, as a fact; `None` for questions, small talk
/// and sentences with too few content words.
pub(super) fn statement(sentence: &str) -> Option<Fact> {
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
    let content = miniclaw_core::text::content_words(s)
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
            // Something that happened, or will, on a day: filed as an event (it fades in weeks),
            // not as who the user is, though it names their sister or their job.
            r(
                "event",
                r"(?i)\b(wedding|engaged|engagement|(got|getting|get) married|funeral|graduat(ed|ing|ion)|anniversary|concert|party|conference|surgery|job interview|baby shower)\b",
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
pub(super) fn possessive(word: &str) -> String {
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
