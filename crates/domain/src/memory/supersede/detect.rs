//! The supersession detector: whether a newer statement gives a slot an older one fills a new
//! value. Pure and explainable (see the module above for the rules); the cosine, when both
//! statements have vectors of one model, is only a "same topic" hint.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::memory::terms;

/// A slot: the words that name it, and whether one such slot exists per object ("favourite"
/// needs "band" or "food" in both statements) or per user ("where I live").
struct Slot {
    name: &'static str,
    pattern: Regex,
    per_object: bool,
    /// Without a stated change, a shared object is needed (a job has a title and an employer).
    needs_change: bool,
}

static SLOTS: LazyLock<Vec<Slot>> = LazyLock::new(|| {
    let s = |name, p: &str, per_object| Slot {
        name,
        pattern: Regex::new(p).expect("static pattern"),
        per_object,
        needs_change: name == "work",
    };
    vec![
        s(
            "home",
            r"\b((live[sd]?|living) (in|at|near|on|with|by|outside|downtown)|moved (to|into|back|out|in|house|away)|moving (to|into|back|out|house|away)|relocat\w* to|based in|settled in)\b",
            false,
        ),
        s(
            "work",
            r"\b(work(s|ing)? (at|for|as)|job|employer|hired|quit|joined|new position|employed|gig as|started at)\b",
            false,
        ),
        s("name", r"\b(name is|named|called|call me|goes by)\b", true),
        s(
            "partner",
            r"\b((my|our) (partner|girlfriend|boyfriend|wife|husband|fianc[eé]e?)|(i'm|i am|we're|we are) (dating|seeing|married|engaged)|(we|i) (broke up|split up|got married|got engaged)|broke up with)\b",
            false,
        ),
        s("favourite", r"\b(favou?rite|go-to|top pick)\b", true),
        s(
            "appointment",
            r"\b(appointment|dentist|doctor|check-?up|visit|meeting|interview|flight|booked|scheduled|rescheduled|postponed|pushed (?:back|to)|on (mon|tues|wednes|thurs|fri|satur|sun)day)\b",
            true,
        ),
        s("diet", r"\b(vegetarian|vegan|pescatarian|diet|keto|gluten|eat(ing)? meat|dairy)\b", false),
        s("vehicle", r"\b((my|our) (new |old )?(car|motorbike|scooter|e-?bike|bike|truck|van)|i drive an? )", true),
        s("commute", r"\b(commute|commuting)\b", false),
        s("age", r"\b(years old|turned \d+|birthday)\b", true),
        s("phone", r"\b(phone|iphone|android|pixel)\b", false),
        s("budget", r"\b(budget|salary|rent|paid|earn|saving for)\b", true),
        s(
            "routine",
            r"\b(every (morning|evening|night|day|week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(my|our) (morning |evening |daily |weekly |new )?routine)\b",
            true,
        ),
    ]
});

/// Words that say the new statement changes something.
static CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(now|anymore|any more|no longer|not .{0,30} anymore|moved|switched|changed|replaced|instead|rescheduled|postponed|pushed|quit|left|sold|broke up|split up|actually|these days|nowadays|turns out|from now on|new|stopped|cancell?ed|upgraded|gave up|given up|cleared|renewed|overtaken|bumped|handed in|finally|no more|not any ?more)\b",
    )
    .expect("static pattern")
});
/// A date or a time: what makes an appointment one appointment.
static WHEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|next (week|month)|",
        r"january|february|march|april|may|june|july|august|september|october|november|december|",
        r"\d{1,2}(:\d{2})? ?(am|pm)|\d{1,2}(st|nd|rd|th)|\d{1,2}[./]\d{1,2})\b"
    ))
    .expect("static pattern")
});
/// The thing a favourite is of: "my favourite band is ..." → band.
static FAVOURITE_OF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:favou?rite|go-to|top pick)(?: \w+)?? (\w+)").expect("static pattern"));

/// Words that add a second value rather than replace the first.
static ADDITIVE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(also|another|as well|in addition|besides|too)\b").expect("static pattern"));
/// Words that make a statement a wish or a possibility, not a fact.
static HYPOTHETICAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(someday|some day|one day|would love|'d love|wish (?:i|to)|dream|maybe|hope to|want to|wanna|thinking about|considering|if i)\b")
        .expect("static pattern")
});
/// Words that put a statement in the past.
static PAST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(used to|previously|before that|back then|years ago|as a kid|when i was|growing up|in the past)\b")
        .expect("static pattern")
});
/// Strong change words that outweigh an additive one ("I also quit my job").
static STRONG_CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(no longer|anymore|replaced|instead|rescheduled|postponed|quit|sold|broke up|switched)\b")
        .expect("static pattern")
});

/// Terms that never count as a shared object: they belong to a slot's own vocabulary.
static SLOT_TERMS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    terms::terms(
        "live lives living moved moving relocated based settled work works working job employer hired quit joined \
         position employed gig started name named called call goes partner girlfriend boyfriend wife husband fiance \
         fiancee dating seeing someone broke split married favourite favorite go-to top pick appointment booked \
         scheduled rescheduled postponed pushed diet eat eating car drive drives driving commute commuting years old turned birthday phone budget salary rent paid earn saving every \
         morning evening night day week weekend routine gym now anymore longer switched changed replaced instead sold \
         actually days nowadays turns new user really",
    )
    .into_iter()
    .collect()
});

/// Terms that can be a new value but never a shared object: pronouns, dates and times, and
/// words too common to name a thing.
static GENERIC_TERMS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    terms::terms(
        "i'm i've i'd i'll it's that's he's she's that this his her him she he it they them their something thing \
         things month months week weeks day year years time times most just get got go going one help back still \
         first last next since until monday tuesday wednesday thursday friday saturday sunday january february \
         march april may june july august september october november december morning evening night \
         meet meeting visit visiting show come know think like love feel make take see say tell want need find look \
         id dont im good great nice really definitely sounds way lot much well pretty went get gets doing done",
    )
    .into_iter()
    .collect()
});

/// A statement about someone else ("my sister lives in Lisbon", "Raj's birthday is ..."): its
/// slot words are about them, not about the user.
static THIRD_PARTY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\W*(?:\w+\W+){0,2}?(?:(?i:my|our) (?:(?i:older|younger|little|big|best|new|old) )?",
        r"(?i:sister|brother|mum|mom|dad|father|mother|nan|gran|grandma|grandpa|grandad|friend|boss|manager|colleague|",
        r"cousin|aunt|uncle|niece|nephew|neighbour|neighbor|son|daughter|kids?|",
        r"dog|cat|flatmate|housemate|landlord|landlady)\b|[A-Z][\w-]+'s\b)"
    ))
    .expect("static pattern")
});

/// A statement whose subject is a named person ("Lena lives in Fernby", "Marco works at the
/// harbour office"): a capitalised first word that acts (not "It is", "This was").
static NAMED_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:[A-Z][\w-]+)(?: [A-Z][\w-]+)? (?:is|was|has|had|lives|lived|works|worked|plays|played|moved|grew|",
        r"learned|learnt|manages|managed|runs|ran|owns|owned|loves|likes|goes|went|drives|studies|studied|teaches|",
        r"taught|got|joined|left|married|belongs)\b"
    ))
    .expect("static pattern")
});
/// First words that are no one's name.
static NOT_A_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:I|It|This|That|There|Here|What|Everything|Nothing|Someone|Everyone|The|A|An|My|Our|We|You)\b")
        .expect("static pattern")
});

fn about_someone_else(text: &str) -> bool {
    let text = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    THIRD_PARTY.is_match(text) || (NAMED_SUBJECT.is_match(text) && !NOT_A_NAME.is_match(text))
}

/// Why one statement updates another, for the relation and the version history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub slot: &'static str,
    pub reason: String,
    /// Words naming the same thing in both (not slot words, dates or pronouns).
    pub shared: usize,
}

fn lower(text: &str) -> String {
    text.to_lowercase().replace(['’', '‘'], "'")
}

/// A line of a transcript names its speaker: `Dana: I moved to Lisbon.`
static SPEAKER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*([A-Za-z][\w.'-]*(?: [A-Za-z][\w.'-]*)?):\s+").expect("static pattern"));

/// The speaker a statement names, and the statement without it.
fn speaker(text: &str) -> (Option<String>, &str) {
    match SPEAKER.captures(text) {
        Some(c) => (Some(c[1].to_lowercase()), &text[c[0].len()..]),
        None => (None, text),
    }
}

/// A question asked inside a sentence, as chat writes them without a question mark ("… why
/// would I pay rent when …"), up to the next comma or semicolon: it states nothing.
static INNER_QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:why|how|what|where|when|who) (?:would|should|could|do|does|did|can|will|is|are|am) (?:i|you|we|he|she|they|it)\b[^,;]*")
        .expect("static pattern")
});
/// "Does a great job of …" praises; it names no one's job.
static JOB_IDIOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:do|does|did|doing|done) (?:an?|such an?) (?:\w+ )?job(?: of)?\b").expect("static pattern")
});

/// The sentences of a text that state something: questions (with a question mark, or asked
/// inside a sentence) and greetings are not statements of fact, nor is an idiom that only
/// borrows a slot's word.
fn statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut keep = |sentence: &str| {
        let plain = JOB_IDIOM.replace_all(&INNER_QUESTION.replace_all(sentence, ""), "").trim().to_string();
        if plain.split_whitespace().count() >= 2 {
            out.push(plain);
        }
    };
    let mut start = 0;
    for (i, ch) in text.char_indices() {
        if matches!(ch, '.' | '!' | '?' | '\n') {
            if ch != '?' {
                keep(&text[start..i]);
            }
            start = i + ch.len_utf8();
        }
    }
    keep(&text[start..]);
    out
}

/// A statement in the first person (or, as extraction writes it, about "the user"): the
/// speaker's own attribute.
static FIRST_PERSON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(i|i'm|i've|i'd|i'll|im|me|my|we|we're|we've|our|us|the user(?:'s)?)\b").expect("static pattern")
});

/// Whether `new` gives a slot `old` fills a new value. `cosine` is their similarity when both
/// have vectors of one model (a weak "same topic" hint; the slot words decide). Each is read
/// sentence by sentence: only statements count (never a question), the slot must be named in
/// one statement of each, and that statement supplies the new value. Two lines of a transcript
/// by different speakers are about different people.
pub fn judge(old: &str, new: &str, cosine: Option<f64>) -> Option<Verdict> {
    let ((old_speaker, old), (new_speaker, new)) = (speaker(old), speaker(new));
    if let (Some(a), Some(b)) = (&old_speaker, &new_speaker)
        && a != b
    {
        return None;
    }
    let (o_all, n_all) = (lower(old), lower(new));
    let (o_stmts, n_stmts) = (statements(&o_all), statements(&n_all));
    if o_stmts.is_empty() || n_stmts.is_empty() {
        return None;
    }
    // Slot words speak of the user only when both statements do; about someone else, the
    // same person must be named and a change stated.
    let (old_other, new_other) = (about_someone_else(old), about_someone_else(new));
    for slot in SLOTS.iter() {
        let (Some(o), Some(n)) =
            (o_stmts.iter().find(|st| slot.pattern.is_match(st)), n_stmts.iter().find(|st| slot.pattern.is_match(st)))
        else {
            continue;
        };
        if let Some(v) = judge_statements(slot, o, n, cosine, (old_other, new_other)) {
            return Some(v);
        }
    }
    // No slot word in common, but the newer statement says in strong words that something
    // changed, about the same thing (a shared name or noun, and the vectors agree closely).
    let (o, n) = (o_stmts.join(". "), n_stmts.join(". "));
    if !changes_the_old(&o, &n) || HYPOTHETICAL.is_match(&n) != HYPOTHETICAL.is_match(&o) || PAST.is_match(&n) {
        return None;
    }
    let (fresh, shared) = compare(&o, &n);
    if fresh.is_empty() {
        return None;
    }
    let very_close = cosine.is_some_and(|c| c >= SAME_TOPIC);
    if (!shared.is_empty() && very_close) || (shared.len() >= 2 && cosine.is_none()) {
        let value = fresh.iter().take(3).map(String::as_str).collect::<Vec<_>>().join(", ");
        let object = shared.first().map(|o| format!(", same object ({o})")).unwrap_or_default();
        let reason = format!("same topic{object}, new value ({value}), stated as a change");
        return Some(Verdict { slot: "topic", reason, shared: shared.len() });
    }
    None
}

/// "instead of X" names what is replaced: the old statement must speak of X.
static INSTEAD_OF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\binstead of ((?:\w+ ?){1,4})").expect("static pattern"));

/// Whether `n` says in strong words that something `o` holds changed: a strong change word,
/// unless it is only "instead of" something `o` never mentions ("instead of regular olive oil
/// I use …" changes a recipe, not what the older statement said).
fn changes_the_old(o: &str, n: &str) -> bool {
    if !STRONG_CHANGE.is_match(n) {
        return false;
    }
    let without_instead = INSTEAD_OF.replace_all(n, "");
    if STRONG_CHANGE.is_match(&without_instead) {
        return true;
    }
    let old: HashSet<String> = terms::terms(o).into_iter().collect();
    INSTEAD_OF.captures_iter(n).any(|c| {
        terms::terms(&c[1]).iter().any(|t| old.contains(t) && !GENERIC_TERMS.contains(t) && !SLOT_TERMS.contains(t))
    })
}

/// The words after the kind of a favourite ("my favourite pasta is ravioli" → ravioli): its
/// value.
fn favourite_value(statement: &str) -> HashSet<String> {
    let Some(kind) = FAVOURITE_OF.captures(statement).and_then(|c| c.get(0)) else { return HashSet::new() };
    terms::terms(&statement[kind.end()..])
        .into_iter()
        .filter(|t| !SLOT_TERMS.contains(t) && !GENERIC_TERMS.contains(t))
        .take(3)
        .collect()
}

/// The words of `n` that `o` lacks (not slot words), and the words naming the same thing in
/// both (not slot words, dates, numbers or pronouns), each sorted.
fn compare(o: &str, n: &str) -> (Vec<String>, Vec<String>) {
    let (old_terms, new_terms): (HashSet<String>, HashSet<String>) =
        (terms::terms(o).into_iter().collect(), terms::terms(n).into_iter().collect());
    let mut fresh: Vec<String> =
        new_terms.difference(&old_terms).filter(|t| !SLOT_TERMS.contains(*t)).cloned().collect();
    let mut shared: Vec<String> = new_terms
        .intersection(&old_terms)
        .filter(|t| {
            !SLOT_TERMS.contains(*t) && !GENERIC_TERMS.contains(*t) && !t.starts_with(|c: char| c.is_ascii_digit())
        })
        .cloned()
        .collect();
    fresh.sort();
    shared.sort();
    (fresh, shared)
}

/// One slot, named in statement `o` of the old memory and `n` of the new one.
fn judge_statements(
    slot: &Slot,
    o: &str,
    n: &str,
    cosine: Option<f64>,
    (old_other, new_other): (bool, bool),
) -> Option<Verdict> {
    if HYPOTHETICAL.is_match(n) != HYPOTHETICAL.is_match(o) || PAST.is_match(n) {
        return None;
    }
    if ADDITIVE.is_match(n) && !STRONG_CHANGE.is_match(n) {
        return None;
    }
    let (fresh, shared) = compare(o, n);
    if fresh.is_empty() {
        return None;
    }
    let changed = CHANGE.is_match(n);
    if old_other != new_other || (new_other && (!changed || shared.is_empty())) {
        return None;
    }
    // The user's own attribute is stated in the first person by both, or both name the same
    // thing ("the dentist").
    if !new_other && shared.is_empty() && !(FIRST_PERSON.is_match(o) && FIRST_PERSON.is_match(n)) {
        return None;
    }
    // An appointment is one when both give it a date or a time; a favourite is of one kind of
    // thing ("favourite band" is not "favourite food").
    if slot.name == "appointment" && !(WHEN.is_match(o) && WHEN.is_match(n)) {
        return None;
    }
    if slot.name == "favourite" {
        let of = |t: &str| FAVOURITE_OF.captures(t).map(|c| terms::terms(&c[1]));
        if of(o).is_none() || of(o) != of(n) {
            return None;
        }
        // The same favourite named again is no new value.
        let new_terms: HashSet<String> = terms::terms(n).into_iter().collect();
        if !STRONG_CHANGE.is_match(n) && favourite_value(o).iter().any(|t| new_terms.contains(t)) {
            return None;
        }
    }
    let needs_object = slot.per_object || (slot.needs_change && !changed);
    if needs_object && shared.is_empty() && !(changed && cosine.is_some_and(|c| c >= SAME_TOPIC)) {
        return None;
    }
    let value = fresh.iter().take(3).map(String::as_str).collect::<Vec<_>>().join(", ");
    let object = shared.first().map(|o| format!(", same object ({o})")).unwrap_or_default();
    let change = if changed { ", stated as a change" } else { "" };
    let reason = format!("same slot ({}){object}, new value ({value}){change}", slot.name);
    Some(Verdict { slot: slot.name, reason, shared: shared.len() })
}

/// Cosine (MiniLM) above which two statements are about the same thing even without a shared
/// slot word, when the newer says it changes something.
const SAME_TOPIC: f64 = 0.65;

#[cfg(test)]
mod tests {
    use super::*;

    fn updates(old: &str, new: &str) -> bool {
        judge(old, new, None).is_some()
    }

    #[test]
    fn a_changed_value_of_one_slot_updates_it() {
        assert!(updates("I live in Porto.", "We moved again, I live in Lisbon now."));
        assert!(updates("I work at Acme as a designer.", "I quit Acme, now I work at Globex."));
        assert!(updates("My favourite band is Radiohead.", "Wilco has replaced Radiohead as my favourite band."));
        assert!(updates("The dentist appointment is on March 3.", "Actually the dentist moved to Thursday."));
        assert!(updates("I'm vegetarian.", "I switched to a vegan diet last month."));
        assert!(updates("My girlfriend is Mia.", "Mia and I broke up; I'm dating Sam now."));
    }

    #[test]
    fn additions_wishes_the_past_and_other_objects_do_not() {
        // a second value of a slot that holds many
        assert!(!updates("I love hiking.", "I also love climbing."));
        assert!(!updates("The user likes jazz", "The user likes hiking"));
        // different objects of a per-object slot
        assert!(!updates("My favourite band is Radiohead.", "My favourite food is ramen."));
        assert!(!updates("The dentist appointment is on March 3.", "I have a haircut booked for Friday."));
        // a wish, and the past
        assert!(!updates("I live in Porto.", "I'd love to live in Japan someday."));
        assert!(!updates("I work at Globex.", "I used to work at a bakery when I was a student."));
        // the same statement again
        assert!(!updates("I live in Porto.", "I live in Porto!"));
        // unrelated
        assert!(!updates("I live in Porto.", "My dog is called Rex."));
        // someone else's slot
        assert!(!updates("I live in Manchester.", "My nan is 88 and lives in a care home in Stockport."));
        assert!(!updates("I've been vegetarian for years.", "It was Biscuit's birthday, he got a vegan sausage."));
        // a job has an employer and a title: one does not replace the other
        assert!(!updates("I work at Halden Logistics.", "My job title is data analyst."));
        // Other people, named: one person's town or job is not another's.
        assert!(!updates("Lena lives in Fernby", "Marco lives in Aldmere"));
        assert!(!updates("Lena works at the Cedar Clinic", "Marco works at the harbour office"));
        assert!(!updates("I live in Porto.", "Marco lives in Aldmere"));
        assert!(updates("Lena lives in Fernby", "Lena moved, she lives in Aldmere now"));
        // dates and pronouns are not a shared object
        assert!(!updates(
            "I'm sitting the AWS exam on Tuesday 29 April.",
            "I've booked an eye test for Tuesday 8 April."
        ));
    }

    #[test]
    fn transcripts_questions_and_long_turns() {
        // two speakers are two people
        assert!(!updates("Dana: I live in Porto.", "Sam: I live in Lisbon now."));
        assert!(updates("Dana: I live in Porto.", "Dana: Actually I moved, I live in Lisbon now."));
        // a question states nothing
        assert!(!updates("I live in Porto.", "Do you still live in Lisbon now?"));
        assert!(!updates("Where do you live now?", "I live in Lisbon."));
        // the slot and the new value must meet in one statement
        assert!(!updates(
            "I live in Porto with two cats.",
            "My new car is great. Anyway the weather in Porto is lovely and I live for these days."
        ));
        // ordinary talk that mentions a slot word is not a new value of it
        assert!(!updates("My job is hard some weeks.", "Haha that sounds like a fun new job for your brother!"));
        // seen in real dialogue (B9): travel talk is not an appointment, two favourites of
        // different things, a common verb is not a shared object, talk about dating in general
        assert!(!updates(
            "I think it is a great destination to visit.",
            "Hopefully I will visit it soon. It was nice talking to you again."
        ));
        assert!(!updates(
            "Risotto with shrimp is one of my favorite dishes to cook.",
            "These are my favorite side dishes."
        ));
        assert!(!updates("My name is Liza. It's nice meeting you Bella!", "Let me show you my dog, his name is Brad."));
        assert!(!updates(
            "Oh I did before but we broke up a long time ago.",
            "I feel like even when dating you need a little personal time."
        ));
        assert!(!updates(
            "Id probably have to drive to a park.",
            "The most id do is have a butler drive me around instead."
        ));
        // still: a dated appointment moved, one favourite of the same thing
        assert!(updates(
            "My dentist appointment is on Tuesday at 3pm.",
            "The dentist moved my appointment to Friday at 10am."
        ));
        assert!(updates("My favourite band is Radiohead.", "Now my favourite band is Wilco."));
    }

    #[test]
    fn idioms_inner_questions_restatements_and_other_replacements_do_not() {
        // "does a good job" is praise, not employment
        assert!(!updates(
            "I started a heist series; the writers do an excellent job with the characters.",
            "I watched a courtroom drama too, the show does a great job of mixing law with stories that move me."
        ));
        // the same favourite named again
        assert!(!updates(
            "My favourite soup is definitely minestrone.",
            "Here's my favourite soup, a minestrone my dad makes with beans!"
        ));
        // "instead of" something the older statement never mentioned
        assert!(!updates(
            "For parties I love cooking a big paella.",
            "To make my paella special, instead of plain stock I now use a saffron broth."
        ));
        // a question asked inside an unpunctuated sentence
        assert!(!updates(
            "I can't afford the rent on my own.",
            "He kept saying why would I pay rent when I could own the place haha"
        ));
        // still: a replaced favourite, and "instead of" what the older said
        assert!(updates("My favourite band is Radiohead.", "Wilco has replaced Radiohead as my favourite band."));
        assert!(updates(
            "I drink oat milk in my coffee every morning.",
            "I switched, now I take almond milk instead of oat milk every morning."
        ));
    }

    #[test]
    fn the_reason_names_the_slot_and_the_value() {
        let v = judge("I live in Porto.", "I live in Lisbon now.", Some(0.7)).unwrap();
        assert_eq!(v.slot, "home");
        assert!(v.reason.contains("lisbon") && v.reason.contains("change"), "{}", v.reason);
    }
}
