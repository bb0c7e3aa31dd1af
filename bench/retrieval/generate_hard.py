#!/usr/bin/env python3
"""Generates the harder, more realistic variant of bench/retrieval's synthetic long-dialogue data set.

generate.py's set plants each fact in a short turn of its own and asks about it mostly in the fact's own words (or,
for the "paraphrase" questions, in none of them), and its temporal questions name the month. Real long dialogue
(LoCoMo) reads lower, and differs in the ways this variant imitates:

- Mostly small talk between the same two people: longer turns of two or three sentences, reactions ("Yes,
  exactly!", "That's so cool"), questions back, and vocabulary reused across sessions, including the words the
  questions use ("pastime", "pet", "trip", "class", "book") and the facts' own entities mentioned again in
  unrelated ways (the pet's name in a later complaint, the city in a coworker's story, the venue in an ad).
- Each fact is said once, in passing, inside a longer turn between small-talk sentences.
- Every question is put in other words than its evidence: it shares at most one rare word with each evidence
  turn (a word whose stem, by generate.py's conservative stemmer, is in at most RARE_SHARE of the dialogue's turns;
  the speakers' names aside; a multi-word name counts once), and any number of common ones. About two thirds name
  one anchor (the pet's kind, the city, the store, the band: "Where did Hugo buy the Subaru?"); the others
  (VAGUE_SHARE) describe it without its words ("Which home exercise machine did Hugo treat himself to?").
- Temporal questions name no month: "When did Caroline bring the rabbit home?"; the turn says "on Saturday" or
  "last weekend" and the answer needs the session's date.
- Multi-hop questions need two turns in two different sessions ("What did Jon do when he went to see his
  sister in her new city?"); both are listed as evidence.
- Some facts are answers to a question in the turn before: "Did you ever make it to that pottery class?" /
  "I did! Went last weekend with my aunt." The evidence is the short answer; the turn before carries its meaning.
- Adversarial questions attribute a fact to the other speaker (as LoCoMo's do); open-domain ones ask for an
  inference ("What might Jon enjoy as a gift?") whose evidence is the fact it rests on.

Output: the same JSON as generate.py (meta, dialogues with sessions of dated turns carrying index, role, speaker,
content and occurredAt; questions with id, dialogueId, type, subtype, question, answer, evidence, sharedWords: every
content stem shared with the evidence), so that run.py reads it unchanged; questions also carry sharedRareWords.
A question is a hit in run.py when ANY of its evidence turns is retrieved, as for generate.py's set. Question types follow LoCoMo's categories: single-hop, multi-hop, temporal,
open-domain, adversarial; subtypes say which kind of fact and, for "…-after-question", that the evidence is an
answer to the turn before it.

generate.py is imported for its vocabulary and word checks only; its own output does not change. Python 3 standard
library only. Deterministic for a given --seed.

    python3 generate_hard.py [--seed 20240501] [--out /tmp/memoir-hard-bench/data.json]
"""

import argparse
import datetime as dt
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import (  # noqa: E402  (one vocabulary and one word check for both variants)
    ANIMALS, BOOKS, CITIES, CLOSING_REPLIES, CLOSINGS, COMPANIES, EVENTS, GREETING_REPLIES, GREETINGS, HOBBIES,
    INTERJECTIONS, ITEMS, JOBS, MONTHS, NEIGHBORHOODS, OTHERS, PEOPLE, PET_NAMES, PLACES, PRON, RELATIVES, RESPONSES,
    SLOTS, SMALL_TALK, SMALL_TALK_ANSWERS, SMALL_TALK_QUESTIONS, SOUVENIRS, STORES, STUDIOS, TRIP_HIGHLIGHTS,
    VISIT_ACTIVITIES, Pool, cap, content_stems, fill, shared_stems)

GENERATOR_VERSION = 1

# A word is rare in a dialogue when at most this share of its turns contain it (its crude stem); a question may share
# any number of common words with its evidence, and at most one rare one (a multi-word name counting once).
RARE_SHARE = 0.015
# The share of questions asked first in vague words (a description sharing no rare word), where a template has one.
VAGUE_SHARE = 0.3

# ---------------------------------------------------------------------------------------------------------------
# Word checks: at most one rare word shared with each evidence turn
# ---------------------------------------------------------------------------------------------------------------


def rare_shared(question, text, names, entities=(), common=frozenset()):
    """Rare content words a question shares with one turn, the names aside: stems not in common; the words of one
    entity (a band, a title, a multi-word place) that both contain count once, as that entity."""
    ent_words = []
    shared_entities = []
    for e in entities:
        if e and e.lower() in question.lower() and e.lower() in text.lower():
            shared_entities.append(e)
            ent_words.append(e)
    rest = [w for w in shared_stems(question, [text], list(names) + ent_words) if w not in common]
    return shared_entities + rest


# ---------------------------------------------------------------------------------------------------------------
# More small talk: the questions' own vocabulary, said about nothing in particular
# ---------------------------------------------------------------------------------------------------------------

QUESTION_VOCAB_TALK = [
    "I keep telling myself I need a pastime that doesn't involve my phone.",
    "My {rel} wants to learn an instrument, the whole family is bracing for it.",
    "Do you think it's too late to pick up a new sport at our age?",
    "I saw a flyer for a craft class at the library, it looked kind of fun.",
    "Every pet in my building has a fancier name than I do, I swear.",
    "My {rel} keeps asking what animal I'd be, it's a whole thing.",
    "The people upstairs have a new companion, I hear little paws all night.",
    "Honestly I'd love to live in a different city for a year, just to see.",
    "My {rel} is thinking about relocating for work, we'll see if it happens.",
    "Everyone I know seems to be moving somewhere new this year.",
    "I spent way too much money this month on stuff I don't need.",
    "I keep adding gadgets to my cart and then closing the tab.",
    "I really want to see more live music this year, it's been ages.",
    "Tickets for anything on stage are so expensive now.",
    "I read a review of a novel {day} and immediately wanted it.",
    "My reading list is getting out of control, I buy books faster than I read them.",
    "I need a real vacation, not just a long weekend on the couch.",
    "A coworker just got back from a trip and the photos were unreal.",
    "I've been thinking a lot about my career lately, where it's going.",
    "Work is work, you know? Some weeks are better than others.",
    "Our neighborhood is changing so fast, new cafes everywhere.",
    "Finding an apartment around here is a nightmare right now.",
    "My {rel} sent me a gift out of nowhere, it made my whole week.",
    "I love bringing back something small from every place I visit.",
    "We had a family get-together {day} and someone brought a new partner.",
    "I want to start something new this year, a class or a club or something.",
    "Do you ever look at old photos and wonder when you got so busy?",
    "I finished a show {day} and now I don't know what to do with my evenings.",
]
BACKCHANNELS = ["Yes, exactly!", "That's so cool!", "Haha, right?", "Oh no!", "Wait, really?", "Same here, honestly.",
                "Ha, I love that.", "Totally.", "Oh, I get that.", "Aw, that's sweet.", "Right?! That's what I said.",
                "No way.", "Ugh, I feel that.", "That makes sense.", "Oh nice!", "Wow.", "Haha, classic.",
                "I hear you.", "For real.", "That sounds nice."]
QUESTIONS_BACK = ["What about you?", "How's your week been?", "How are things with you?", "Anything new on your end?",
                  "How's your {rel} doing?", "Did you ever try that {food} place?", "Are you sleeping any better?",
                  "How's work treating you?", "Any plans this weekend?", "What are you watching lately?"]
GENERIC_REACTIONS = ["Oh wow, that's huge!", "No way! Tell me everything.", "That's amazing, I'm so happy for you.",
                     "Wait, really? That's so exciting.", "Okay I love this.", "Ha, of course you did.",
                     "Yes, exactly! You deserve that.", "That's so cool.", "Oh nice, how was it?", "Love that for you."]
ELABORATIONS = ["Thanks! It's been a good distraction honestly.", "Yeah, I didn't expect it either.",
                "I'll send you pictures later.", "Right? I keep telling everyone.", "It was a long time coming.",
                "Ha, thanks. It's been a week.", "I'll tell you more next time, it's a whole story.",
                "Honestly I surprised myself.", "Yeah, I'm pretty happy about it.", "We'll see how it goes!"]

# Synonyms used by the questions, chosen not to share a stem with the evidence's word.
ANIMAL_SYN = {"dog": "pup", "cat": "feline", "rabbit": "bunny", "parrot": "bird", "hamster": "rodent",
              "tortoise": "reptile", "ferret": "critter", "guinea pig": "rodent", "bearded dragon": "lizard",
              "cockatiel": "bird", "corgi puppy": "dog", "tabby kitten": "cat"}
RELATIVE_SYN = {"sister": "sibling", "brother": "sibling", "mom": "mother", "dad": "father", "aunt": "relative",
                "uncle": "relative", "cousin": "relative", "grandma": "grandmother", "niece": "relative",
                "nephew": "relative", "older brother": "sibling", "little sister": "sibling"}
PLACE_KIND = {"concert": "band or singer", "play": "show", "game": "team", "comedy": "comedian"}
OPEN_HOBBY = {"cello": "music", "pottery": "crafts", "bouldering": "climbing", "salsa": "dancing", "chess": "games",
              "knitting": "crafts", "surf": "the ocean", "archery": "outdoor sports", "ukulele": "music",
              "Italian": "languages", "jiu-jitsu": "martial arts", "beekeeping": "nature", "embroidery": "crafts",
              "piano": "music", "calligraphy": "art", "tennis": "sports", "drum": "music", "improv": "performing",
              "woodworking": "making things", "watercolor": "art", "photography": "art", "fencing": "sports",
              "sign language": "languages", "rowing": "sports", "figure skating": "sports", "guitar": "music",
              "bread": "cooking", "yoga": "fitness", "sewing": "crafts"}

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def fmt_date(d):
    return "%d %s %d" % (d.day, MONTHS[d.month - 1], d.year)


def when_phrase(rng, date):
    """A relative time as a person says it, and the date it means given the session's date."""
    k = rng.choice(["yesterday", "weekday", "weekend", "lastweek", "days"])
    if k == "yesterday":
        return "yesterday", fmt_date(date - dt.timedelta(days=1))
    if k == "weekday":
        back = rng.randint(1, 6)
        d = date - dt.timedelta(days=back)
        return "on " + WEEKDAYS[d.weekday()], fmt_date(d)
    if k == "weekend":
        back = (date.weekday() - 5) % 7 or 7  # the Saturday before
        d = date - dt.timedelta(days=back)
        return "last weekend", "the weekend of " + fmt_date(d)
    if k == "lastweek":
        return "last week", "the week before " + fmt_date(date)
    n = rng.choice([2, 3])
    return "a couple of days ago" if n == 2 else "a few days ago", fmt_date(date - dt.timedelta(days=n))


# ---------------------------------------------------------------------------------------------------------------
# Dialogue
# ---------------------------------------------------------------------------------------------------------------


class Dialogue:
    def __init__(self, rng, index, speakers, n_sessions, start, turns_target):
        self.rng = rng
        self.index = index
        self.id = "conv-%02d" % index
        self.speakers = speakers
        self.n_sessions = n_sessions
        self.turns_target = turns_target
        self.facts = []
        self.questions = []
        self.mentions = {}  # session -> [(who, sentence)]: entities mentioned again in unrelated ways
        self.pools = {name: Pool(rng, values) for name, values in {
            "pet": PET_NAMES, "animal": ANIMALS, "rel": RELATIVES, "city": CITIES, "visit": VISIT_ACTIVITIES,
            "hobby": HOBBIES, "studio": STUDIOS, "item": ITEMS, "store": STORES, "book": BOOKS, "place": PLACES,
            "highlight": TRIP_HIGHLIGHTS, "souvenir": SOUVENIRS, "job": JOBS, "company": COMPANIES,
            "nb": NEIGHBORHOODS, "other": OTHERS}.items()}
        for kind, (names, venues, _) in EVENTS.items():
            self.pools["event:" + kind] = Pool(rng, names)
            self.pools["venue:" + kind] = Pool(rng, venues)
        self.session_dates = []
        d = start
        for _ in range(n_sessions):
            self.session_dates.append(d)
            d = d + dt.timedelta(days=rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 16, 19, 21, 24, 27]),
                                 hours=rng.randint(-6, 6), minutes=rng.randint(0, 59))

    def name(self, who):
        return self.speakers[who][0]

    def pron(self, who):
        return PRON[self.speakers[who][1]]

    def sess(self, lo=0.0, hi=1.0):
        a = int(lo * (self.n_sessions - 1))
        b = max(a, int(hi * (self.n_sessions - 1)))
        return self.rng.randint(a, b)

    def later(self, s, span=8):
        return self.rng.randint(s + 1, min(self.n_sessions - 1, s + span))

    def mention(self, who, sentence, lo=0, hi=None, avoid=()):
        """The same entity said again, about something else, in another session."""
        hi = self.n_sessions - 1 if hi is None else hi
        choices = [s for s in range(lo, hi + 1) if s not in avoid]
        if choices:
            self.mentions.setdefault(self.rng.choice(choices), []).append((who, sentence))

    def fact(self, who, session, sentence, kind, style="passing", ask=None, **attrs):
        """A fact said once: in passing inside a longer turn, or (style "answer") as the answer to the other
        speaker's question ask."""
        f = dict(owner=who, session=session, sentence=sentence, kind=kind, style=style, ask=ask, id=len(self.facts),
                 **attrs)
        self.facts.append(f)
        return f

    def question(self, qtype, subtype, templates, answer, facts, entities=(), vague=()):
        """The first template that shares at most one rare word with each evidence turn (checked after the turns
        are built, on their full text); the rest are fallbacks. templates name one anchor (an entity, the kind of
        thing); vague ones describe it without its words, and go first for VAGUE_SHARE of the questions."""
        templates, vague = list(templates), list(vague)
        order = vague + templates if vague and self.rng.random() < VAGUE_SHARE else templates + vague
        self.questions.append(dict(type=qtype, subtype=subtype, templates=order, answer=answer,
                                   facts=[f["id"] for f in facts], entities=list(entities)))

    def date_of(self, s):
        return self.session_dates[s]

    # -- facts ----------------------------------------------------------------------------------------------
    def plan_person(self, who):
        rng = self.rng
        P = self.name(who)
        O = self.name(1 - who)
        she, her_obj, her = self.pron(who)

        # A pet: adopted in passing, its name said again later about nothing, a later anecdote (multi-hop).
        animal, _ = self.pools["animal"].take()
        pname = self.pools["pet"].take()
        ps, po, pp = PRON[rng.choice("fm")]
        s = self.sess(0.0, 0.7)
        when, date = when_phrase(rng, self.date_of(s))
        f = self.fact(who, s, rng.choice([
            "Oh and we brought home a little {a} from the rescue {w}, {n}, {ps} already sleeps on my pillow.",
            "Also, small thing, we adopted a {a} {w}! {N} is {pp} name and {ps} is the sweetest.",
            "The big news is {n}, a {a} we picked up from a shelter {w}, so the apartment smells like {pp} food now.",
        ]).format(a=animal, w=when, n=pname, N=pname, ps=ps, pp=pp), "pet")
        syn = ANIMAL_SYN[animal]
        self.question("single-hop", "pet-name", [
            "What did {P} name the {a}?".format(P=P, a=animal),
            "What is {P}'s {a} called?".format(P=P, a=animal)], pname, [f], vague=[
            "What did {P} call the {syn} {she} took in?".format(P=P, syn=syn, she=she),
            "What's the name of {P}'s new companion?".format(P=P)])
        self.question("temporal", "pet", [
            "When did {P} get {n}?".format(P=P, n=pname)], date, [f], entities=[pname], vague=[
            "When did {P} take in the {syn}?".format(P=P, syn=syn)])
        if rng.random() < 0.5:
            self.question("adversarial", "pet-name", [
                "What is the name of {O}'s {a}?".format(O=O, a=animal), "What is the name of {O}'s {syn}?".format(O=O, syn=syn)], "(not {O}'s: {P}'s) {n}".format(O=O, P=P, n=pname), [f])
        for _ in range(rng.choice([2, 3])):
            self.mention(who, rng.choice([
                "{n} woke me up at five again, typical.", "{n} has been glued to my side all day.",
                "Sorry if I'm slow to answer, {n} keeps sitting on my keyboard.",
                "I bought {n} a new toy and {ps} ignored it completely."]).format(n=pname, ps=ps), lo=s + 1)
        if s + 2 < self.n_sessions:
            s2 = self.later(s)
            anecdote, q, ans = rng.choice([
                ("{n} got out of the yard and a mail carrier brought {po} back, I nearly had a heart attack.",
                 "Who returned {P}'s {syn} after it escaped?", "a mail carrier"),
                ("{n} is terrified of the vacuum, {ps} hides on top of the fridge whenever it's on.",
                 "What frightens {P}'s {syn}?", "the vacuum cleaner"),
                ("The vet says {n} is allergic to chicken, so it's fish-based food from now on.",
                 "What can't {P}'s {syn} eat?", "chicken"),
                ("{n} chewed through my favorite leather boots, I can't even be mad.",
                 "What did {P}'s {syn} ruin?", "leather boots"),
                ("We signed {n} up for obedience school on Saturdays, {ps}'s the class clown.",
                 "What training is {P}'s {syn} getting?", "obedience school"),
            ])
            f2 = self.fact(who, s2, anecdote.format(n=pname, po=po, ps=ps), "pet-followup")
            self.question("multi-hop", "pet", [q.format(P=P, syn=animal), q.format(P=P, syn=syn)], ans, [f, f2],
                          entities=[pname])

        # Relatives who moved, then a visit there (multi-hop); the city also comes up in someone else's story.
        for _ in range(rng.choice([1, 2])):
            rel, g, _ = self.pools["rel"].take()
            rsyn = RELATIVE_SYN[rel]
            city = self.pools["city"].take()
            rs, ro, rp = PRON[g]
            s = self.sess(0.05, 0.75)
            when, date = when_phrase(rng, self.date_of(s))
            f = self.fact(who, s, rng.choice([
                "My {rel} finally packed up and left for {c} {w}, {rs} found a place near the water.",
                "Oh, and my {rel} is officially in {c} now, {rs} drove out {w} with everything in a rental truck.",
            ]).format(rel=rel, c=city, w=when, rs=rs), "moved")
            self.question("single-hop", "relative-city", [
                "Where did {P}'s {rel} move to?".format(P=P, rel=rel),
                "Which city is {P}'s {rel} in now?".format(P=P, rel=rel)], city, [f], vague=[
                "In which town is {P}'s {syn} settled these days?".format(P=P, syn=rsyn),
                "Where does {P}'s {syn} reside now?".format(P=P, syn=rsyn)])
            self.question("temporal", "relative-city", [
                "When did {P}'s {syn} relocate to {c}?".format(P=P, syn=rsyn, c=city)], date, [f], entities=[city],
                vague=["When did {P}'s {syn} relocate?".format(P=P, syn=rsyn)])
            self.mention(rng.randint(0, 1), rng.choice([
                "A coworker just came back from {c} and said it rained the whole time.",
                "There was a documentary about {c} on {day}, the food looked amazing.",
                "My dentist is from {c}, she talks about it constantly."]).replace("{day}", rng.choice(WEEKDAYS))
                .format(c=city), avoid=[s])
            if s + 2 < self.n_sessions:
                s2 = self.later(s, 10)
                act = self.pools["visit"].take().format(pos=rp)
                f2 = self.fact(who, s2, "I finally went to see my {rel} out there, we {act}.".format(rel=rel, act=act),
                               "visit")
                self.question("multi-hop", "visit", [
                    "What did {P} get up to in {c}?".format(P=P, c=city),
                    "What did {P} and {her} {rel} do together after the move?".format(P=P, her=her, rel=rel)],
                    act, [f, f2], entities=[city], vague=[
                    "What did {P} do on the weekend spent with {her} {syn} after the move?".format(P=P, her=her, syn=rsyn)])

        # Hobbies: one said in passing, one told as the answer to the other's question.
        for i in range(2):
            lesson, phrase, desc = self.pools["hobby"].take()
            studio = self.pools["studio"].take()
            s = self.sess()
            when, date = when_phrase(rng, self.date_of(s))
            if i == 0:
                f = self.fact(who, s, rng.choice([
                    "I started {ph} at {st} {w}, I'm terrible but it's the best part of my week.",
                    "I went to my first {ph} class at {st} {w}, it's weirdly good for my stress.",
                ]).format(ph=phrase, st=studio, w=when), "hobby")
            else:
                rel, _, _ = self.pools["rel"].take()
                f = self.fact(who, s, rng.choice([
                    "I did! The class was {w}, my {rel} came too and we were both hopeless.",
                    "Yes, finally, {w}! My {rel} came along to the class and we're going back next month.",
                ]).format(w=when, rel=rel), "hobby", style="answer",
                    ask="Wait, did you ever try that {ph} thing you were talking about?".format(ph=phrase))
                self.question("single-hop", "hobby-companion-after-question", [
                    "Who came to the {ph} class with {P}?".format(P=P, ph=phrase)], rel, [f], vague=[
                    "Who went with {P} to try {desc}?".format(P=P, desc=_article(desc))])
                continue
            self.question("single-hop", "hobby", [
                "What does {P} do at {st}?".format(P=P, st=studio),
                "Where does {P} go for {ph}?".format(P=P, ph=phrase)], phrase if rng.random() < 0.5 else studio,
                [f], entities=[studio, phrase], vague=[
                "Which {desc} has {P} taken up?".format(desc=desc, P=P),
                "What pastime did {P} pick up?".format(P=P)])
            if rng.random() < 0.6:
                self.question("temporal", "hobby", [
                    "When did {P} start {ph}?".format(P=P, ph=phrase)], date, [f], entities=[phrase], vague=[
                    "When did {P} first try {desc}?".format(P=P, desc=_article(desc))])
            if rng.random() < 0.5:
                self.question("open-domain", "hobby", [
                    "Would {P} like a gift to do with {ph}?".format(P=P, ph=phrase)],
                    "yes, something for %s" % phrase, [f], entities=[phrase], vague=[
                    "Would {P} enjoy a present related to {o}?".format(P=P, o=OPEN_HOBBY[lesson])])
            self.mention(rng.randint(0, 1), rng.choice([
                "{st} is having a bake sale this weekend, the flyers are everywhere.",
                "Someone left a lost umbrella sign at {st}, it's been up for a month."]).format(st=studio), avoid=[s])

        # Purchases: said in passing; the item comes up again about someone else's.
        for _ in range(rng.choice([2, 3])):
            item, noun, desc = self.pools["item"].take()
            store = self.pools["store"].take()
            s = self.sess()
            when, date = when_phrase(rng, self.date_of(s))
            f = self.fact(who, s, rng.choice([
                "I caved and got {i} from {st} {w}, my bank account is crying.",
                "Oh I forgot to say, {i} arrived {w}, {st} had a sale and I couldn't resist.",
            ]).format(i=item, st=store, w=when), "purchase")
            self.question("single-hop", "purchase", [
                "Where did {P} buy the {n}?".format(P=P, n=noun),
                "What did {P} get at {st}?".format(P=P, st=store)], store, [f], entities=[noun, store], vague=[
                "Which {desc} did {P} treat {obj}self to?".format(desc=desc, P=P, obj="her" if she == "she" else "him"),
                "What did {P} splurge on?".format(P=P)])
            if rng.random() < 0.5:
                self.question("temporal", "purchase", [
                    "When did {P} buy the {n}?".format(P=P, n=noun)], date, [f], entities=[noun], vague=[
                    "When did {P} pick up the {desc}?".format(P=P, desc=desc),
                    "When did {P} make that big purchase?".format(P=P)])
            if rng.random() < 0.25:
                self.question("adversarial", "purchase", [
                    "Where did {O} buy the {n}?".format(O=O, n=noun), "Where did {O} find the {desc}?".format(O=O, desc=desc)],
                    "(not {O}: {P}) {st}".format(O=O, P=P, st=store), [f], entities=[noun])
            self.mention(1 - who, rng.choice([
                "My neighbor has {i} too and never uses it.", "I almost bought {i} once, then came to my senses."])
                .format(i=item), avoid=[s])

        # Events: in passing, or as the answer to "did you end up going?"
        for i in range(rng.choice([2, 3])):
            kind = rng.choice(["concert", "concert", "play", "game", "comedy"])
            ename = self.pools["event:" + kind].take()
            venue = self.pools["venue:" + kind].take()
            s = self.sess(0.05, 1.0)
            when, date = when_phrase(rng, self.date_of(s))
            desc = EVENTS[kind][2]
            if i == 1:
                rel, _, _ = self.pools["rel"].take()
                word = {"concert": "concert", "play": "show", "game": "game", "comedy": "show"}[kind]
                f = self.fact(who, s, rng.choice([
                    "We did, {w}! My {rel} drove, and honestly the {k} was worth every penny.",
                    "Yes! Went {w} with my {rel}, we were hoarse the next day. Best {k} in ages.",
                ]).format(w=when, rel=rel, k=word), "event", style="answer",
                    ask="Did you end up going to {n} after all?".format(n=ename))
                self.question("single-hop", "event-companion-after-question", [
                    "Who went to the {k} with {P}?".format(P=P, k=word),
                    "Who went with {P} to watch {n}?".format(P=P, n=ename)], rel, [f], entities=[ename])
            else:
                f = self.fact(who, s, rng.choice([
                    "We saw {n} at {v} {w}, I'm still not over it.",
                    "Oh, {n} at {v} {w} was incredible, best night in ages.",
                ]).format(n=ename, v=venue, w=when), "event")
                self.question("single-hop", "event", [
                    "Where did {P} see {n}?".format(P=P, n=ename)], venue, [f], entities=[ename], vague=[
                    "Which {k} did {P} see live recently?".format(k=PLACE_KIND[kind], P=P),
                    "What outing did {P} enjoy lately?".format(P=P)])
                if rng.random() < 0.5:
                    self.question("temporal", "event", [
                        "When did {P} catch {n}?".format(P=P, n=ename)], date, [f], entities=[ename])
                if rng.random() < 0.4:
                    self.question("open-domain", "event", [
                        "Is {P} a fan of seeing a {d}?".format(P=P, d=desc)], "yes, saw %s" % ename, [f])
                if rng.random() < 0.3:
                    self.question("adversarial", "event", [
                        "Where did {O} watch {n}?".format(O=O, n=ename)], "(not {O}: {P}) {v}".format(O=O, P=P, v=venue),
                        [f], entities=[ename])
            self.mention(rng.randint(0, 1), rng.choice([
                "{n} is on the radio every time I get in the car.", "My coworker can't stop quoting {n}, it's a lot."])
                .format(n=ename), avoid=[s])

        # Jobs: a change of job said in passing; the new company comes up again in small talk.
        js = sorted(rng.sample(range(self.n_sessions), 2))
        jobs = []
        for i, s in enumerate(js):
            role = self.pools["job"].take()
            comp = self.pools["company"].take()
            when, date = when_phrase(rng, self.date_of(s))
            text = ("Work-wise I started as a {r} at {c} {w}, still learning everyone's names." if i == 0 else
                    "So I left {p} and started as a {r} at {c} {w}, fingers crossed.").format(
                r=role, c=comp, w=when, p=jobs[-1]["company"] if jobs else "")
            jobs.append(self.fact(who, s, text, "job", company=comp, role=role, date=date))
            self.mention(rng.randint(0, 1), "I saw an ad for {c} on the bus {d}, they're everywhere.".format(
                c=comp, d=rng.choice(WEEKDAYS)), avoid=[s])
        self.question("single-hop", "current-job", [
            "What is {P}'s role at {c}?".format(P=P, c=jobs[-1]["company"])],
            "%s at %s" % (jobs[-1]["role"], jobs[-1]["company"]), [jobs[-1]], entities=[jobs[-1]["company"]], vague=[
            "What does {P} do for a living now?".format(P=P), "How does {P} earn money at present?".format(P=P)])
        self.question("multi-hop", "previous-job", [
            "Where did {P} work as a {r} before the latest job?".format(P=P, r=jobs[0]["role"])],
            jobs[0]["company"], [jobs[0], jobs[1]], entities=[jobs[0]["role"]], vague=[
            "Which employer did {P} quit for the newer position?".format(P=P),
            "Where was {P} employed before {her} latest change?".format(P=P, her=her)])
        if rng.random() < 0.5:
            self.question("temporal", "job", [
                "When did {P} start at {c}?".format(P=P, c=jobs[1]["company"])], jobs[1]["date"], [jobs[1]],
                entities=[jobs[1]["company"]], vague=["When did {P} switch employers?".format(P=P)])

        # Books: in passing, with an opinion; an open-domain question on whether they'd recommend it.
        for _ in range(rng.choice([1, 2])):
            title, author, genre = self.pools["book"].take()
            s = self.sess()
            when, date = when_phrase(rng, self.date_of(s))
            f = self.fact(who, s, rng.choice([
                "I finished {t} {w}, stayed up until two for the ending.",
                "I was up way too late {w} with {t}, the last chapters destroyed me.",
            ]).format(t=title, w=when), "book")
            self.question("single-hop", "book", [
                "What did {P} think of {t}?".format(P=P, t=title)], "loved it, stayed up late to finish it", [f],
                entities=[title], vague=[
                "Which {g} kept {P} awake?".format(g=genre, P=P),
                "What {g} did {P} get through?".format(g=genre, P=P)])
            if rng.random() < 0.5:
                self.question("open-domain", "book", [
                    "Would {P} suggest {t} to a friend?".format(P=P, t=title)], "probably yes", [f], entities=[title])
            self.mention(1 - who, "I saw {t} on a table at the airport {d} and almost bought it.".format(
                t=title, d=rng.choice(WEEKDAYS)), avoid=[s])

        # Trips: in passing or as an answer; a souvenir mentioned in a later session (multi-hop).
        for i in range(rng.choice([1, 2])):
            place, desc = self.pools["place"].take()
            hl = self.pools["highlight"].take()
            s = self.sess(0.05, 0.85)
            when, date = when_phrase(rng, self.date_of(s))
            if i == 0:
                f = self.fact(who, s, rng.choice([
                    "We got back from {p} {w}, and the best part was {h}.",
                    "{P2} was gorgeous, we flew home {w}, the highlight was {h}.",
                ]).format(p=place, P2=cap(place), w=when, h=hl), "trip", place=place)
                self.question("single-hop", "trip", [
                    "What was the best part of {P}'s trip to {p}?".format(P=P, p=place)], hl, [f], entities=[place],
                    vague=["Which {d} did {P} vacation in?".format(d=desc, P=P),
                           "Where did {P} go on holiday?".format(P=P)])
            else:
                f = self.fact(who, s, "Loved it. Honestly the best part was {h}, I'd go back tomorrow.".format(h=hl),
                              "trip", style="answer", place=place,
                              ask="How was {p}? I've been dying to hear.".format(p=place))
                self.question("single-hop", "trip-after-question", [
                    "What did {P} enjoy most about {p}?".format(P=P, p=place),
                    "What stood out for {P} during the holiday in {p}?".format(P=P, p=place)], hl, [f],
                    entities=[place])
            if i == 0 and rng.random() < 0.5:
                self.question("temporal", "trip", [
                    "When did {P} come home from {p}?".format(P=P, p=place),
                    "When did {P} return from {her} holiday?".format(P=P, her=her)], date, [f], entities=[place])
            self.mention(rng.randint(0, 1), "A coworker is going to {p} next month, I'm so jealous.".format(p=place),
                         avoid=[s])
            if s + 2 < self.n_sessions and rng.random() < 0.6:
                sv = self.pools["souvenir"].take()
                s2 = self.later(s)
                f2 = self.fact(who, s2, "I use the {sv} I picked up on that trip every single day.".format(sv=sv),
                               "souvenir")
                self.question("multi-hop", "souvenir", [
                    "What keepsake did {P} bring home from {p}?".format(P=P, p=place)], sv, [f, f2], entities=[place])

        # A move: in passing; the neighborhood said again about someone else.
        s = self.sess(0.1, 0.9)
        nb = self.pools["nb"].take()
        when, date = when_phrase(rng, self.date_of(s))
        f = self.fact(who, s, "We got the keys to a place in {nb} {w}, boxes everywhere.".format(nb=nb, w=when), "home")
        self.question("single-hop", "home", [
            "Where did {P} get the keys to a new place?".format(P=P)], nb, [f], vague=[
            "Which part of town is {P} living in?".format(P=P), "What area did {P} relocate to?".format(P=P)])
        if rng.random() < 0.5:
            self.question("temporal", "home", [
                "When did {P} relocate to {nb}?".format(P=P, nb=nb), "When did {P} change address?".format(P=P)],
                date, [f], entities=[nb])
        self.mention(1 - who, "My {rel} looked at an apartment in {nb} but it was way too small.".format(
            rel=rng.choice(SLOTS["rel"]), nb=nb), avoid=[s])

    # -- turns ----------------------------------------------------------------------------------------------
    def sentence(self, topic=None):
        rng = self.rng
        if topic is None and rng.random() < 0.3:
            return fill(rng, rng.choice(QUESTION_VOCAB_TALK))
        topic = topic or rng.choice(sorted(SMALL_TALK))
        return fill(rng, rng.choice(SMALL_TALK[topic]), pos=rng.choice(["her", "his"]))

    def talk_turn(self, extra=None):
        """Two or three sentences of small talk; extra (a mention) replaces one of them."""
        rng = self.rng
        parts = [self.sentence() for _ in range(rng.choice([1, 2, 2, 3]))]
        if extra:
            parts[rng.randrange(len(parts))] = extra
        pre = rng.choice(INTERJECTIONS)
        text = " ".join(parts)
        if pre and not text.startswith("I"):
            text = pre + text[0].lower() + text[1:]
        elif pre:
            text = pre + text
        if rng.random() < 0.25:
            text += " " + fill(rng, rng.choice(QUESTIONS_BACK))
        return text

    def reply_turn(self):
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            return rng.choice(BACKCHANNELS)
        if r < 0.6:
            return rng.choice(BACKCHANNELS) + " " + rng.choice(RESPONSES[rng.choice(sorted(RESPONSES))])
        if r < 0.8:
            return rng.choice(BACKCHANNELS) + " " + self.sentence()
        return self.talk_turn()

    def talk_segment(self, first, mentions):
        rng = self.rng
        out = []
        who = first
        if rng.random() < 0.2:
            out.append((who, fill(rng, rng.choice(SMALL_TALK_QUESTIONS)), None))
            out.append((1 - who, rng.choice(SMALL_TALK_ANSWERS) + " " + self.sentence(), None))
            out.append((who, rng.choice(BACKCHANNELS), None))
            return out
        for _ in range(rng.choice([2, 3, 3, 4])):
            m = None
            for k, (mw, ms) in enumerate(mentions):
                if mw == who:
                    m = mentions.pop(k)[1]
                    break
            out.append((who, self.talk_turn(m) if (m or not out or rng.random() < 0.5) else self.reply_turn(), None))
            who = 1 - who
        return out

    def fact_segment(self, f):
        rng = self.rng
        who, other = f["owner"], 1 - f["owner"]
        out = []
        if f["style"] == "answer":
            if rng.random() < 0.5:
                out.append((who, self.talk_turn(), None))
            out.append((other, f["ask"], None))
            out.append((who, f["sentence"], f["id"]))
        else:
            before = [self.sentence() for _ in range(rng.choice([0, 1, 1]))]
            after = [self.sentence() for _ in range(rng.choice([0, 0, 1]))]
            if not before and not after:
                after = [self.sentence()]
            text = " ".join(before + [f["sentence"]] + after)
            pre = rng.choice(INTERJECTIONS)
            if pre and before:
                text = pre + (text if text.startswith("I") else text[0].lower() + text[1:])
            out.append((who, text, f["id"]))
        out.append((other, rng.choice(GENERIC_REACTIONS) if rng.random() < 0.6 else self.reply_turn(), None))
        if rng.random() < 0.4:
            out.append((who, rng.choice(ELABORATIONS), None))
        return out

    def build(self):
        rng = self.rng
        per_session = {}
        for f in self.facts:
            per_session.setdefault(f["session"], []).append(f)
        sessions, fact_turn = [], {}
        turn_index = 0
        for si in range(self.n_sessions):
            target = max(12, int(round(self.turns_target / self.n_sessions * rng.uniform(0.75, 1.25))))
            start = self.session_dates[si]
            X = rng.randint(0, 1)
            lines = [(X, fill(rng, rng.choice(GREETINGS), Y=self.name(1 - X), weekday=start.strftime("%A")), None),
                     (1 - X, fill(rng, rng.choice(GREETING_REPLIES), X=self.name(X)), None)]
            facts = list(per_session.get(si, []))
            rng.shuffle(facts)
            mentions = list(self.mentions.get(si, []))
            n_fact_turns = sum(3 if f["style"] == "answer" else 2.4 for f in facts)
            n_talk = max(1, int(round((target - 4 - n_fact_turns) / 3.0)))
            segments = [("fact", f) for f in facts] + [("talk", None)] * n_talk
            rng.shuffle(segments)
            for kind, f in segments:
                last = lines[-1][0]
                if kind == "fact":
                    if f["style"] == "passing" and last == f["owner"]:
                        lines.append((1 - f["owner"], rng.choice(BACKCHANNELS), None))
                    lines.extend(self.fact_segment(f))
                else:
                    lines.extend(self.talk_segment(1 - last, mentions))
            for mw, ms in mentions:  # mentions left over: one more exchange
                lines.append((mw, self.talk_turn(ms), None))
                lines.append((1 - mw, self.reply_turn(), None))
            last = lines[-1][0]
            lines.append((1 - last, rng.choice(CLOSINGS), None))
            lines.append((last, fill(rng, rng.choice(CLOSING_REPLIES), X=self.name(1 - last)), None))
            t = start
            turns = []
            for j, (who, text, fid) in enumerate(lines):
                if j:
                    t = t + dt.timedelta(seconds=rng.randint(8, 240))
                turns.append({"index": turn_index, "role": "user" if who == 0 else "assistant",
                              "speaker": self.name(who), "content": text, "occurredAt": t.strftime("%Y-%m-%dT%H:%M:%SZ")})
                if fid is not None:
                    fact_turn[fid] = turn_index
                turn_index += 1
            sessions.append({"index": si, "date": start.strftime("%Y-%m-%dT%H:%M:%SZ"), "turns": turns})
        return sessions, fact_turn


def _article(desc):
    return ("an " if desc[:1].lower() in "aeiou" else "a ") + desc


def generate(seed, n_dialogues, turns_per_dialogue):
    rng = random.Random(seed)
    people = list(PEOPLE)
    rng.shuffle(people)
    dialogues, questions = [], []
    dropped = 0
    for d in range(n_dialogues):
        a, b = people[(2 * d) % len(people)], people[(2 * d + 1) % len(people)]
        n_sessions = rng.randint(20, 30)
        start = dt.datetime(2022, 1, 10, 0, 0) + dt.timedelta(days=rng.randint(0, 420), hours=rng.randint(8, 20),
                                                               minutes=rng.randint(0, 59))
        dia = Dialogue(random.Random(rng.random()), d, [a, b], n_sessions, start, turns_per_dialogue)
        dia.plan_person(0)
        dia.plan_person(1)
        sessions, fact_turn = dia.build()
        turns = {t["index"]: t for s in sessions for t in s["turns"]}
        dialogues.append({"id": dia.id, "userId": "bench-hard-" + dia.id,
                          "speakers": {"user": a[0], "assistant": b[0]}, "sessions": sessions})
        names = [a[0], b[0]]
        df = {}
        for t in turns.values():
            for w in content_stems(t["content"]):
                df[w] = df.get(w, 0) + 1
        common = frozenset(w for w, c in df.items() if c > RARE_SHARE * len(turns))
        for q in dia.questions:
            evidence = sorted({fact_turn[fid] for fid in q["facts"]})
            texts = [turns[i]["content"] for i in evidence]
            chosen = None
            for t in q["templates"]:
                per_turn = [rare_shared(t, x, names, q["entities"], common) for x in texts]
                if all(len(s) <= 1 for s in per_turn):
                    chosen = (t, sorted({w for s in per_turn for w in s}))
                    break
            if chosen is None:
                dropped += 1
                continue
            questions.append({"id": "q%04d" % (len(questions) + 1), "dialogueId": dia.id, "type": q["type"],
                              "subtype": q["subtype"], "question": chosen[0], "answer": q["answer"],
                              "evidence": evidence, "sharedWords": shared_stems(chosen[0], texts, names),
                              "sharedRareWords": chosen[1]})
    return {"meta": {"generator": "bench/retrieval/generate_hard.py", "variant": "hard", "version": GENERATOR_VERSION,
                     "seed": seed, "dialogues": len(dialogues),
                     "sessions": sum(len(d["sessions"]) for d in dialogues),
                     "turns": sum(len(s["turns"]) for d in dialogues for s in d["sessions"]),
                     "questions": len(questions), "questionsDropped": dropped},
            "dialogues": dialogues, "questions": questions}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=20240501)
    ap.add_argument("--dialogues", type=int, default=10)
    ap.add_argument("--turns", type=int, default=600, help="target turns per dialogue")
    ap.add_argument("--out", default="/tmp/memoir-hard-bench/data.json")
    args = ap.parse_args()
    data = generate(args.seed, args.dialogues, args.turns)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(data, fh, indent=1)
    counts = {}
    for q in data["questions"]:
        counts[q["type"]] = counts.get(q["type"], 0) + 1
    per_dialogue = [sum(len(s["turns"]) for s in d["sessions"]) for d in data["dialogues"]]
    print("wrote %s: %d dialogues, %d sessions, %d turns (%d-%d per dialogue), %d questions %s (%d dropped: no "
          "template shares at most one rare word)"
          % (args.out, data["meta"]["dialogues"], data["meta"]["sessions"], data["meta"]["turns"], min(per_dialogue),
             max(per_dialogue), data["meta"]["questions"], json.dumps(counts, sort_keys=True),
             data["meta"]["questionsDropped"]), file=sys.stderr)


if __name__ == "__main__":
    main()
