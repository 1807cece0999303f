#!/usr/bin/env python3
"""Validator for b6_scenario.json (long-horizon memory-retrieval benchmark).

Usage: python3 check_b6.py [path/to/b6_scenario.json]
Exits non-zero (AssertionError) on the first rule violation, otherwise prints counts.
"""
import json
import os
import re
import sys

MIN_FACTS = 170
MIN_CHANGES = 20
MIN_SMALLTALK = 90
MIN_QUESTIONS = 75
MIN_PARAPHRASE = 25
MIN_CHANGED_SLOT_QUESTIONS = 22

# Words ignored when deciding whether a question shares vocabulary with a fact.
STOP_WORDS = set("""
a about above after again against all also am an and any anything are aren as at
be because been before being below between both but by
can cannot could couldn d did didn do does doesn doing don done down during
each else even ever every few for from further get gets getting got
had hadn has hasn have haven having he her here hers herself him himself his how
if in into is isn it its itself just know let ll like m ma me might mine more most
much must mustn my myself need no nor not now o of off oh ok okay on once one only or
other our ours ourselves out over own please re really right s same shall shan she
should shouldn so some something still such t than that the their theirs them themselves
then there these they this those through to too u under until up us ve very
was wasn we well were weren what when where which while who whom why will with won
would wouldn y yeah yes yet you your yours yourself yourselves
i btw lol tbh
""".split())
PERSONAL = {"i", "my", "me", "you", "your", "mine"}
IGNORED = STOP_WORDS | PERSONAL

KINDS = {"fact", "smalltalk", "question"}
FIRST_PERSON = {"i", "my", "me", "we", "our", "us", "mine", "myself", "ourselves"}


def words(text):
    return re.findall(r"[a-z0-9]+", text.lower())


def stem(w):
    return w[:-1] if len(w) > 3 and w.endswith("s") else w


def content(text):
    return {stem(w) for w in words(text) if w not in IGNORED}


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "b6_scenario.json")
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)

    assert isinstance(data.get("description"), str) and data["description"].strip(), "description missing"
    days = data.get("days")
    assert days == 64, f"days must be 64, got {days}"
    events = data["events"]
    assert isinstance(events, list) and events, "events must be a non-empty list"

    facts = {}          # id -> event
    fact_order = {}     # id -> index in events
    replaced_on = {}    # fact id -> day it was replaced
    replaced_by = {}    # fact id -> replacing fact id
    seen_ids = set()
    n_changes = 0
    n_small = 0
    n_small_first_person = 0
    questions = []
    prev_day = 0
    busy = {}

    for idx, ev in enumerate(events):
        where = f"event #{idx} ({ev.get('id', ev.get('say', ev.get('ask', '')))[:40]!r})"
        kind = ev.get("kind")
        assert kind in KINDS, f"{where}: bad kind {kind!r}"
        day = ev.get("day")
        assert isinstance(day, int) and 1 <= day <= days, f"{where}: bad day {day!r}"
        assert day >= prev_day, f"{where}: days not sorted ({day} after {prev_day})"
        prev_day = day
        busy[day] = busy.get(day, 0) + 1

        if kind in ("fact", "question"):
            eid = ev.get("id")
            assert isinstance(eid, str) and eid, f"{where}: missing id"
            assert eid not in seen_ids, f"{where}: duplicate id {eid}"
            seen_ids.add(eid)

        if kind == "smalltalk":
            say = ev.get("say")
            assert isinstance(say, str) and say.strip(), f"{where}: smalltalk needs 'say'"
            assert set(ev) <= {"day", "kind", "say"}, f"{where}: smalltalk has extra keys {set(ev)}"
            n_small += 1
            if FIRST_PERSON & set(words(say)):
                n_small_first_person += 1

        elif kind == "fact":
            say = ev.get("say")
            assert isinstance(say, str) and say.strip(), f"{where}: fact needs 'say'"
            topic = ev.get("topic")
            assert isinstance(topic, str) and re.fullmatch(r"[a-z0-9_]+", topic), f"{where}: bad topic {topic!r}"
            assert FIRST_PERSON & set(words(say)), f"{where}: fact is not first person"
            reps = ev.get("replaces", [])
            assert isinstance(reps, list), f"{where}: replaces must be a list"
            if reps:
                n_changes += 1
            for r in reps:
                assert r in facts, f"{where}: replaces unknown/later fact {r}"
                assert facts[r]["topic"] == topic, f"{where}: replaces {r} of another topic ({facts[r]['topic']} != {topic})"
                assert r not in replaced_on, f"{where}: {r} was already replaced by {replaced_by[r]}"
                replaced_on[r] = day
                replaced_by[r] = ev["id"]
            facts[ev["id"]] = ev
            fact_order[ev["id"]] = idx

        else:  # question
            ask = ev.get("ask")
            assert isinstance(ask, str) and ask.strip(), f"{where}: question needs 'ask'"
            answers = ev.get("answers")
            stale = ev.get("stale")
            para = ev.get("paraphrase")
            assert isinstance(answers, list) and answers, f"{where}: answers must be a non-empty list"
            assert isinstance(stale, list), f"{where}: stale must be a list"
            assert isinstance(para, bool), f"{where}: paraphrase must be a bool"
            for a in answers:
                assert a in facts, f"{where}: answer {a} is not an earlier fact"
                assert facts[a]["day"] < day, f"{where}: answer {a} is not from an earlier day"
                assert a not in replaced_on or replaced_on[a] > day, \
                    f"{where}: answer {a} was replaced (by {replaced_by.get(a)}) on or before day {day}"
            answer_topics = {facts[a]["topic"] for a in answers}
            for s in stale:
                assert s in facts, f"{where}: stale {s} is not an earlier fact"
                assert s not in answers, f"{where}: {s} both answer and stale"
                assert s in replaced_on and replaced_on[s] <= day, f"{where}: stale {s} was not replaced by day {day}"
                assert facts[s]["topic"] in answer_topics, f"{where}: stale {s} has topic {facts[s]['topic']} not among answer topics"
            q_words = content(ask)
            shared = set()
            for a in answers:
                shared |= q_words & content(facts[a]["say"])
            if para:
                assert not shared, f"{where}: paraphrase question shares {sorted(shared)} with its answer(s)"
            else:
                assert shared, f"{where}: marked paraphrase=false but shares no content word with its answer(s)"
            questions.append(ev)

    n_facts = len(facts)
    n_q = len(questions)
    n_para = sum(1 for q in questions if q["paraphrase"])
    n_changed_q = sum(1 for q in questions if q["stale"])
    # questions asked between two changes of the same slot: the answer itself is later replaced
    n_between = sum(1 for q in questions if q["stale"] and any(a in replaced_on for a in q["answers"]))
    topics = {}
    for f in facts.values():
        topics.setdefault(f["topic"], []).append(f["id"])
    multi_add = sum(1 for f in facts.values()
                    if not f.get("replaces") and len(topics[f["topic"]]) > 1
                    and topics[f["topic"]][0] != f["id"])
    chains = sum(1 for f in facts.values() if f.get("replaces") and any(r in replaced_by and facts[r].get("replaces") for r in f["replaces"]))
    questioned = {a for q in questions for a in q["answers"]}

    assert n_facts >= MIN_FACTS, f"facts {n_facts} < {MIN_FACTS}"
    assert n_changes >= MIN_CHANGES, f"changes {n_changes} < {MIN_CHANGES}"
    assert n_small >= MIN_SMALLTALK, f"smalltalk {n_small} < {MIN_SMALLTALK}"
    assert n_q >= MIN_QUESTIONS, f"questions {n_q} < {MIN_QUESTIONS}"
    assert n_para >= MIN_PARAPHRASE, f"paraphrase questions {n_para} < {MIN_PARAPHRASE}"
    assert n_changed_q >= MIN_CHANGED_SLOT_QUESTIONS, f"changed-slot questions {n_changed_q} < {MIN_CHANGED_SLOT_QUESTIONS}"
    assert n_between >= 3, f"questions between two changes {n_between} < 3"
    assert chains >= 3, f"slots changed twice {chains} < 3"
    assert multi_add >= 5, f"multi-valued additions {multi_add} < 5"
    assert n_small_first_person * 5 >= n_small, f"first-person smalltalk {n_small_first_person}/{n_small} below 20%"
    empty_days = [d for d in range(1, days + 1) if d not in busy]
    assert empty_days, "expected some empty days"
    assert max(busy.values()) >= 8, "expected some busy days"

    print(f"events:                      {len(events)}")
    print(f"days with events / empty:    {len(busy)} / {len(empty_days)} {empty_days}")
    print(f"busiest day:                 {max(busy, key=busy.get)} ({max(busy.values())} events)")
    print(f"facts:                       {n_facts}")
    print(f"  topics:                    {len(topics)}")
    print(f"  changes (with replaces):   {n_changes}")
    print(f"  second/third changes:      {chains}")
    print(f"  multi-valued additions:    {multi_add}")
    print(f"  facts asked about:         {len(questioned)}")
    print(f"smalltalk:                   {n_small} (first person: {n_small_first_person})")
    print(f"questions:                   {n_q}")
    print(f"  paraphrase:                {n_para}")
    print(f"  changed slot (stale != []):{n_changed_q:>4}")
    print(f"  between two changes:       {n_between}")
    print("OK")


if __name__ == "__main__":
    main()
