#!/usr/bin/env python3
"""Generates long-answer dialogues for Memoir's search benchmark: users ask an assistant for plans and lists, and
the assistant answers at length (2,500 to 6,000 characters: itineraries, reading lists, meal plans, training
plans), as in real assistant chat logs. Questions ask about one detail of one answer, either from its first item
("early": within the first few hundred tokens) or from one of its last items ("late": past the first 512 tokens of
the answer, where a single embedding of the whole turn says least about it). Every user has several answers of
each kind, about different cities, people and weeks, so a question must find the right answer among look-alikes.

Same JSON format as generate.py (dialogues with dated sessions of turns, questions with their evidence turn
indexes and a type: long-early, long-late), so run.py imports and searches it as it does the other data set.
Python 3 standard library only; deterministic for a given --seed.

    python3 generate_long.py [--seed 20261126] [--users 4] [--sessions 40] [--out /tmp/memoir-retrieval-bench/long.json]
"""

import argparse
import datetime as dt
import json
import os
import random
import sys

CITIES = ["Lisbon", "Porto", "Kyoto", "Osaka", "Vienna", "Prague", "Krakow", "Seville", "Granada", "Bologna",
          "Naples", "Edinburgh", "Dublin", "Copenhagen", "Stockholm", "Tallinn", "Budapest", "Ljubljana", "Valletta",
          "Marrakesh", "Istanbul", "Tbilisi", "Hanoi", "Seoul", "Taipei", "Oaxaca", "Lima", "Cusco", "Montreal",
          "Quebec City", "Vancouver", "Santiago", "Cape Town", "Zanzibar", "Reykjavik", "Bergen", "Munich",
          "Lyon", "Bordeaux", "San Sebastian"]
PLACES = ["the old cathedral", "the botanical garden", "the harbour walk", "the castle ruins", "the modern art museum",
          "the covered market", "the hilltop viewpoint", "the river cruise pier", "the textile museum",
          "the tram museum", "the royal palace", "the street-art quarter", "the monastery cloister",
          "the science centre", "the city aquarium", "the lighthouse trail", "the thermal baths",
          "the flea market", "the jazz cellar", "the observatory", "the tile museum", "the puppet theatre",
          "the clock tower", "the fishing village", "the sand dunes", "the vineyard estate", "the salt mines",
          "the tea plantation", "the bamboo grove", "the opera house"]
ASIDES = ["If it rains, the indoor galleries next door are a good fallback and rarely crowded.",
          "Locals tend to go in the late afternoon, so the morning is the quietest time for photos.",
          "There is a small bakery on the corner that opens early and does excellent coffee.",
          "Wear comfortable shoes: the cobblestones are uneven and the hills are steeper than they look on a map.",
          "The museum shop is worth a look for postcards and prints that you won't find elsewhere.",
          "Tickets are cheaper online, and the queue for them moves faster too.",
          "Keep an eye on the tram timetable, because the last one back leaves earlier on Sundays.",
          "A picnic works well here if the weather holds; the market has everything you need.",
          "The viewpoint is at its best half an hour before sunset, when the light turns gold.",
          "Bring a scarf for the churches, where shoulders are expected to be covered."]
ACTIVITIES = ["a guided walking tour", "a cooking class", "a bike ride along the river", "a pottery workshop",
              "a sunset kayak trip", "a food tasting tour", "a day hike", "a boat trip to the islands",
              "a photography walk", "a wine tasting", "a calligraphy lesson", "a cheese-making demonstration",
              "a bird-watching walk", "a glass-blowing visit", "a history lecture", "a flamenco show"]
RESTAURANT_WORDS = ["Casa", "Taberna", "Osteria", "Bistro", "Cantina", "Trattoria", "Brasserie", "Izakaya",
                    "Tasca", "Kitchen", "Table", "Garden"]
RESTAURANT_NAMES = ["da Ribeira", "Aurora", "del Sol", "Magnolia", "Verde", "Azul", "Nonna Rita", "Peixe Dourado",
                    "Kasai", "Oliveira", "Lanterna", "Bellavista", "Marés", "Zinnia", "Corvo", "Sakura", "Il Faro",
                    "Copper Pot", "Black Fig", "Red Door", "Two Lemons", "Quince", "Saffron", "Juniper", "Pimenta",
                    "Tamarind", "Basil & Salt", "Old Mill", "Fig Tree", "Harbour Light"]
DISHES = ["grilled sardines", "octopus rice", "duck confit", "mushroom risotto", "ramen with black garlic",
          "lamb tagine", "seafood stew", "beef goulash", "pierogi", "gazpacho", "tapas", "pasta alla norma",
          "fish and chips", "smørrebrød", "pho", "bibimbap", "dumplings", "mole negro", "ceviche", "poutine",
          "bacalhau à brás", "pastel de nata", "gelato", "churros", "baklava", "khachapuri", "paella",
          "truffle gnocchi", "okonomiyaki", "tempura"]
BOOKS = [("The Salt Road", "Amara Okafor"), ("A Winter in Lviv", "Tomasz Brandt"), ("Glass Orchards", "Ines Varela"),
         ("The Cartographer's Daughter", "Helen Marsh"), ("Tidewater", "Jonah Pike"),
         ("Small Hours", "Mei Lin Zhou"), ("The Long Table", "Rosa Albuquerque"), ("Northern Lights", "Erik Lund"),
         ("Paper Lanterns", "Kenji Mori"), ("The Quiet Engine", "Laura Benn"), ("Field Notes", "Oscar Delgado"),
         ("The River Between", "Nadia Haddad"), ("Iron and Honey", "Pietro Sala"), ("The Orchard Keeper", "Ada Quinn"),
         ("Blue Hour", "Sofia Marques"), ("Stone Soup Days", "Malik Reyes"), ("Driftwood", "Clara Voss"),
         ("The Ninth Bridge", "Yusuf Aydin"), ("Lemon Season", "Giulia Ferri"), ("Copper Sky", "Dmitri Volkov"),
         ("The Weaver's Map", "Ana Costa"), ("Low Tide", "Fiona Grant"), ("A House of Clocks", "Hugo Stein"),
         ("The Last Ferry", "Leila Nasser"), ("Wild Thyme", "Marta Ruiz"), ("Second Spring", "Jun Park")]
BOOK_ASIDES = ["The paperback has a lovely cover, if that matters for a gift.",
               "Some readers find the first fifty pages slow, but it pays off.",
               "It was made into a radio play that is also worth a listen.",
               "The audiobook narrator is excellent, should your friend prefer listening.",
               "It is short enough for a weekend away.",
               "Book clubs tend to argue about the ending, which is half the fun.",
               "The translation is recent and reads very naturally."]
BOOK_REASONS = ["for its quiet humour", "because the ending stays with you", "for the way it handles grief",
                "if you liked long family sagas", "for its short, sharp chapters", "because it is set by the sea",
                "for its beautiful descriptions of food", "if you want something hopeful",
                "because it reads like a thriller", "for its unusual narrator", "because it is funny and sad at once",
                "for the letters between the sisters"]
WORKOUTS = ["interval runs", "hill repeats", "a long slow run", "tempo runs", "core circuits", "kettlebell swings",
            "rowing intervals", "yoga for runners", "squats and lunges", "a swim session", "a bike commute",
            "mobility drills", "stair climbs", "a recovery walk"]
TRAINING_ASIDES = ["Eat something small with carbohydrates an hour before the key session.",
                   "Stretch for ten minutes afterwards, focusing on calves and hips.",
                   "If it is very hot, move the session to early morning and drink more than you think you need.",
                   "Write down how the session felt; it helps to see progress over the weeks.",
                   "New shoes should be broken in on easy runs, never on the key session.",
                   "A foam roller in the evening does wonders for tight legs."]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
PEOPLE = [("Maria", "her"), ("Jonas", "him"), ("Aiko", "her"), ("Tomás", "him"), ("Priya", "her"), ("Lukas", "him"),
          ("Chloé", "her"), ("Kwame", "him")]
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth"]
CHATTER = ["Thanks, that helps a lot.", "Great, I'll save this.", "Perfect, exactly what I needed.",
           "Could you keep it shorter next time?", "Nice, my partner will love it.", "Ok, noted.",
           "That's a lot, but useful.", "Thank you!", "I'll think about it and come back to you."]
CHATTER_REPLIES = ["You're welcome! Enjoy.", "Happy to help.", "Any time, just ask.", "Glad it's useful.",
                   "Let me know how it goes."]


def restaurant(rng):
    return "%s %s" % (rng.choice(RESTAURANT_WORDS), rng.choice(RESTAURANT_NAMES))


def itinerary(rng, city, days):
    """A day-by-day plan; returns the answer text and the details of each day."""
    lines = ["Here is a %d-day plan for %s, built around walking distances and a slower pace in the afternoons, "
             "with a table booked for each evening so you never have to hunt for dinner when you're tired." % (days, city)]
    details = []
    places = rng.sample(PLACES, days)
    for d in range(days):
        morning, lunch_dish = places[d], rng.choice(DISHES)
        activity, dinner, dinner_dish = rng.choice(ACTIVITIES), restaurant(rng), rng.choice(DISHES)
        hour = rng.choice(["7 pm", "7:30 pm", "8 pm", "8:30 pm", "9 pm"])
        lines.append("Day %d. Start the morning at %s, then have lunch nearby and try the %s. In the afternoon book %s; "
                     "it takes about two hours and is worth it even in bad weather. For dinner go to %s at %s and "
                     "order the %s. If you still have energy, the streets around it are lovely after dark, and most "
                     "shops there stay open late on weekdays. %s %s" % (d + 1, morning, lunch_dish, activity, dinner, hour,
                                                                        dinner_dish, rng.choice(ASIDES),
                                                                        rng.choice(ASIDES)))
        details.append(dict(day=d + 1, morning=morning, activity=activity, dinner=dinner, dish=dinner_dish, hour=hour))
    lines.append("A practical note: buy a transport card on the first day, carry a light rain jacket, and keep "
                 "some cash for the small places, which often do not take cards.")
    return "\n\n".join(lines), details


def reading_list(rng, who, count):
    lines = ["Here are %d books I think %s would enjoy, roughly from the lightest to the most demanding, with a word "
             "on why each one made the list, so you can pick by mood rather than by reputation." % (count, who)]
    picks = rng.sample(BOOKS, count)
    details = []
    for i, (title, author) in enumerate(picks):
        reason = rng.choice(BOOK_REASONS)
        lines.append("%d. %s by %s, %s. It is a good one to read in a few long sittings rather than a chapter a night, "
                     "and it pairs well with a walk afterwards to think it over. %s" % (i + 1, title, author, reason,
                                                                                     rng.choice(BOOK_ASIDES)))
        details.append(dict(position=i + 1, title=title, author=author, reason=reason))
    lines.append("If only one of them, start with the first: it is the easiest way in.")
    return "\n\n".join(lines), details


def training_plan(rng, goal, weeks):
    lines = ["Here is a %d-week plan towards your %s. Each week builds a little on the one before, with one rest day "
             "and one easy day so your legs can recover, and the long session always at the weekend." % (weeks, goal)]
    details = []
    for w in range(weeks):
        key, extra, day = rng.choice(WORKOUTS), rng.choice(WORKOUTS), rng.choice(WEEKDAYS)
        minutes = rng.choice([30, 35, 40, 45, 50, 55, 60, 70, 80, 90])
        lines.append("Week %d. The key session is %s on %s, about %d minutes including warm-up. Add %s midweek, keep "
                     "everything else easy and conversational, and sleep a little more than usual; if you feel tired "
                     "skip the extra session rather than the key one. %s" % (w + 1, key, day, minutes, extra,
                                                                            rng.choice(TRAINING_ASIDES)))
        details.append(dict(week=w + 1, key=key, day=day, minutes=minutes, extra=extra))
    lines.append("In the last week, halve everything and arrive at the start fresh rather than fit.")
    return "\n\n".join(lines), details


def generate(seed, users, sessions_per_user):
    rng = random.Random(seed)
    dialogues, questions = [], []
    cities = list(CITIES)
    for u in range(users):
        user_name = ["Helena", "Marcus", "Yuki", "Rafael", "Ingrid", "Omar"][u % 6]
        start = dt.datetime(2024, 1, 8, 9, 0) + dt.timedelta(days=rng.randint(0, 200))
        rng.shuffle(cities)
        city_queue = list(cities)
        sessions, turn_index = [], 0
        date = start
        for s in range(sessions_per_user):
            kind = ["trip", "books", "training"][s % 3]
            turns = []

            def add(role, text, when):
                nonlocal turn_index
                turns.append({"index": turn_index, "role": role,
                              "speaker": user_name if role == "user" else "Assistant",
                              "content": text, "occurredAt": when.strftime("%Y-%m-%dT%H:%M:%SZ")})
                turn_index += 1
                return turn_index - 1

            t = date
            if kind == "trip":
                city = city_queue.pop()
                days = rng.randint(8, 10)
                ask = "I'm going to %s for %d days next month. Can you plan the trip for me, day by day, with where " \
                      "to eat?" % (city, days)
                answer, details = itinerary(rng, city, days)
                add("user", ask, t)
                index = add("assistant", answer, t + dt.timedelta(seconds=40))
                early, late = details[0], details[-1 - rng.randint(0, 1)]
                questions.append(dict(dialogue=u, type="long-early", evidence=[index],
                                      question="Which place did you suggest for the first morning of my %s trip?" % city,
                                      answer=early["morning"]))
                questions.append(dict(dialogue=u, type="long-late", evidence=[index],
                                      question="Where did you say we should have dinner on day %d in %s?"
                                               % (late["day"], city), answer=late["dinner"]))
                questions.append(dict(dialogue=u, type="long-late", evidence=[index],
                                      question="What did you tell me to order for dinner on the %s day in %s?"
                                               % (ORDINALS[late["day"] - 1], city), answer=late["dish"]))
            elif kind == "books":
                person, pron = rng.choice(PEOPLE)
                count = rng.randint(11, 14)
                ask = "My friend %s loves novels. Can you give me a reading list for %s, with a reason for each?" \
                      % (person, pron)
                answer, details = reading_list(rng, person, count)
                add("user", ask, t)
                index = add("assistant", answer, t + dt.timedelta(seconds=35))
                early, late = details[0], details[-1 - rng.randint(0, 2)]
                questions.append(dict(dialogue=u, type="long-early", evidence=[index],
                                      question="Which book was first on the reading list for %s?" % person,
                                      answer=early["title"]))
                questions.append(dict(dialogue=u, type="long-late", evidence=[index],
                                      question="Who wrote book number %d on the list you made for %s?"
                                               % (late["position"], person), answer=late["author"]))
                questions.append(dict(dialogue=u, type="long-late", evidence=[index],
                                      question="Why did you recommend %s to %s?" % (late["title"], person),
                                      answer=late["reason"]))
            else:
                goal = rng.choice(["first half marathon", "10k race", "mountain trail race", "charity 5k",
                                   "cycling sportive", "open-water swim"])
                weeks = rng.randint(11, 14)
                ask = "Can you make me a %d-week training plan for my %s?" % (weeks, goal)
                answer, details = training_plan(rng, goal, weeks)
                add("user", ask, t)
                index = add("assistant", answer, t + dt.timedelta(seconds=45))
                early, late = details[0], details[-1 - rng.randint(1, 2)]
                questions.append(dict(dialogue=u, type="long-early", evidence=[index],
                                      question="What was the key session in week 1 of my %s plan?" % goal,
                                      answer=early["key"]))
                questions.append(dict(dialogue=u, type="long-late", evidence=[index],
                                      question="On which day is the key session of week %d of the %s plan?"
                                               % (late["week"], goal), answer=late["day"]))
            for _ in range(rng.randint(1, 3)):
                t = t + dt.timedelta(minutes=rng.randint(1, 5))
                add("user", rng.choice(CHATTER), t)
                add("assistant", rng.choice(CHATTER_REPLIES), t + dt.timedelta(seconds=10))
            sessions.append({"index": s, "date": date.strftime("%Y-%m-%dT%H:%M:%SZ"), "turns": turns})
            date = date + dt.timedelta(days=rng.randint(2, 9), hours=rng.randint(-3, 3))
        dialogues.append({"id": "long-%02d" % u, "userId": "bench-long-%02d" % u,
                          "speakers": {"user": user_name, "assistant": "Assistant"}, "sessions": sessions})
    out_questions = []
    for i, q in enumerate(questions):
        out_questions.append({"id": "l%04d" % (i + 1), "dialogueId": "long-%02d" % q["dialogue"], "type": q["type"],
                              "subtype": q["type"], "question": q["question"], "answer": q["answer"],
                              "evidence": q["evidence"], "sharedWords": []})
    return {"meta": {"generator": "bench/retrieval/generate_long.py", "version": 1, "seed": seed,
                     "dialogues": len(dialogues),
                     "turns": sum(len(s["turns"]) for d in dialogues for s in d["sessions"]),
                     "questions": len(out_questions)},
            "dialogues": dialogues, "questions": out_questions}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--users", type=int, default=4)
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--out", default="/tmp/memoir-retrieval-bench/long.json")
    args = ap.parse_args()
    data = generate(args.seed, args.users, args.sessions)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(data, fh, indent=1)
    answers = [t["content"] for d in data["dialogues"] for s in d["sessions"] for t in s["turns"]
               if t["role"] == "assistant" and len(t["content"]) > 1000]
    counts = {}
    for q in data["questions"]:
        counts[q["type"]] = counts.get(q["type"], 0) + 1
    print("wrote %s: %d dialogues, %d turns, %d long answers (%d-%d characters), %d questions %s"
          % (args.out, data["meta"]["dialogues"], data["meta"]["turns"], len(answers), min(map(len, answers)),
             max(map(len, answers)), data["meta"]["questions"], json.dumps(counts, sort_keys=True)), file=sys.stderr)


if __name__ == "__main__":
    main()
