#!/usr/bin/env python3
"""Generates a synthetic, LoCoMo-like long-term-conversation retrieval data set for Memoir's search benchmark.

Each dialogue is two named people chatting about their lives over 20-30 dated sessions (days to weeks apart,
turns seconds to minutes apart). Facts are planted in specific turns (pets, relatives who moved, hobbies,
purchases, events, jobs, books, trips, homes), surrounded by small talk that shares their vocabulary and by hard
distractors (the same kind of fact about a cousin or a neighbour, plans made before the fact, a childhood pet, a
book given up on, jobs and homes that change). Questions carry the index (within the dialogue) of their
evidence turn(s) and a type:

  entity      reuses at least one content word of its evidence turn (also subtype third-party)
  paraphrase  shares no content word with its evidence turn (synonyms, descriptions)
  temporal    "when did ..." or "what did X do in <Month YYYY>" (Memoir indexes each memory's month and year)
  multi-hop   needs two evidence turns (a counted hit when ANY evidence turn is retrieved)
  update      asks for the current (or previous) state of a fact that changed over time

Python 3 standard library only. Deterministic for a given --seed.

    python3 generate.py [--seed 20240501] [--out /tmp/memoir-retrieval-bench/data.json]
"""

import argparse
import datetime as dt
import json
import os
import random
import re
import sys

GENERATOR_VERSION = 1

# PostgreSQL's (Snowball's) English stop words; used to decide which words a question shares with its evidence.
STOP_WORDS = set("""i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she
her hers herself it its itself they them their theirs themselves what which who whom this that these those am is
are was were be been being have has had having do does did doing a an the and but if or because as until while of
at by for with about against between into through during before after above below to from up down in out on off
over under again further then once here there when where why how all any both each few more most other some such
no nor not only own same so than too very s t can will just don should now""".split())

# ---------------------------------------------------------------------------------------------------------------
# Word overlap between a question and its evidence (a conservative stand-in for PostgreSQL's stemming: two words
# count as shared when their crude stems agree, so "paraphrase" questions are strictly free of shared words).
# ---------------------------------------------------------------------------------------------------------------


def crude_stem(word):
    for suffix in ("ing", "ed", "es", "s", "ly", "er"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    return word[:5]


def content_stems(text, exclude=()):
    excluded = {w.lower() for phrase in exclude for w in re.findall(r"[a-z0-9]+", phrase.lower())}
    return {crude_stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP_WORDS and w not in excluded}


def shared_stems(question, texts, exclude=()):
    q = content_stems(question, exclude)
    e = set()
    for t in texts:
        e |= content_stems(t, exclude)
    return sorted(q & e)


# ---------------------------------------------------------------------------------------------------------------
# People and value pools
# ---------------------------------------------------------------------------------------------------------------

PEOPLE = [("Caroline", "f"), ("Melanie", "f"), ("Jon", "m"), ("Gina", "f"), ("Joanna", "f"), ("Nate", "m"),
          ("Audrey", "f"), ("Andrew", "m"), ("Deborah", "f"), ("Evan", "m"), ("Sam", "m"), ("Calvin", "m"),
          ("Maria", "f"), ("John", "m"), ("Tim", "m"), ("Priya", "f"), ("Marcus", "m"), ("Lena", "f"),
          ("Omar", "m"), ("Rosa", "f"), ("Hugo", "m"), ("Ines", "f"), ("Dev", "m"), ("Hannah", "f")]

PRON = {"f": ("she", "her", "her"), "m": ("he", "him", "his")}

ANIMALS = [("dog", "furry"), ("cat", "furry"), ("rabbit", "furry"), ("parrot", "feathered"),
           ("hamster", "furry"), ("tortoise", "shelled"), ("ferret", "furry"), ("guinea pig", "furry"),
           ("bearded dragon", "scaly"), ("cockatiel", "feathered"), ("corgi puppy", "furry"),
           ("tabby kitten", "furry")]
PET_NAMES = ["Pixel", "Biscuit", "Mochi", "Juniper", "Pepper", "Olive", "Waffles", "Nacho", "Luna", "Milo",
             "Ziggy", "Clementine", "Pickles", "Bandit", "Hazel", "Tofu", "Maple", "Cosmo", "Noodle", "Sprout",
             "Rocket", "Basil", "Marble", "Peanut", "Echo", "Figaro", "Toast", "Pumpkin", "Gizmo", "Truffle",
             "Kiwi", "Dumpling", "Sage", "Oreo", "Sushi", "Tango", "Bean", "Remy", "Nova", "Chai", "Pretzel",
             "Captain", "Winnie", "Otis", "Fig", "Jasper", "Poppy", "Bruno"]
PET_FOLLOWUPS = [  # (statement about NAME, question about the animal, answer)
    ("The vet finally figured it out: {name} is allergic to chicken, so it's fish-based food from now on.",
     "What food is {P}'s {animal} allergic to?", "chicken"),
    ("{name} learned to ring a little bell by the door when {pron} wants out. Genius.",
     "What trick did {P}'s {animal} learn?", "ringing a bell by the door"),
    ("{name} chewed straight through my favorite leather boots. I can't even be mad.",
     "What did {P}'s {animal} destroy?", "leather boots"),
    ("Took {name} for {pos} checkup and {pron} weighs twice what the shelter said. Chonky.",
     "What did {P} find out at the {animal}'s vet visit?", "it weighs twice what the shelter said"),
    ("{name} has decided the laundry basket is {pos} bed now. Every single night.",
     "Where does {P}'s {animal} sleep?", "in the laundry basket"),
    ("We signed {name} up for obedience school on Saturdays, {pron} is the class clown.",
     "What class is {P}'s {animal} enrolled in?", "obedience school"),
    ("{name} got out of the yard on Sunday and a mail carrier brought {obj} back. Heart attack.",
     "Who found {P}'s {animal} when it escaped?", "a mail carrier"),
    ("{name} is terrified of the vacuum, {pron} hides on top of the fridge when it's on.",
     "What is {P}'s {animal} scared of?", "the vacuum cleaner"),
]

RELATIVES = [("sister", "f", "sibling"), ("brother", "m", "sibling"), ("mom", "f", "parent"),
             ("dad", "m", "parent"), ("aunt", "f", "relative"), ("uncle", "m", "relative"),
             ("cousin", "f", "relative"), ("grandma", "f", "grandparent"), ("niece", "f", "relative"),
             ("nephew", "m", "relative"), ("older brother", "m", "sibling"), ("little sister", "f", "sibling")]
CITIES = ["Portland", "Denver", "Austin", "Toronto", "Edinburgh", "Melbourne", "Santa Fe", "Boise", "Savannah",
          "Minneapolis", "Vancouver", "Dublin", "Asheville", "Tucson", "Raleigh", "Montreal", "Berlin",
          "Pittsburgh", "Madison", "Halifax", "Copenhagen", "Sacramento", "Burlington", "Albuquerque",
          "Charleston", "Milwaukee", "Boulder", "Amsterdam", "Auckland", "San Diego"]
VISIT_ACTIVITIES = ["went to a minor league baseball game", "hiked a trail up to a waterfall",
                    "spent a whole day at a flea market", "took a glassblowing class together",
                    "ate our way through the food trucks downtown", "went to a drag brunch",
                    "rented bikes and rode along the river", "painted {pos} new kitchen yellow",
                    "went to a pumpkin patch", "did an escape room and failed miserably",
                    "watched fireworks over the harbor", "went ice skating at the outdoor rink",
                    "toured an old chocolate factory", "spent hours in a giant used bookstore"]

# (noun for "X lessons", phrase for "got into X", description without the hobby's own words)
HOBBIES = [("cello", "the cello", "string instrument"), ("pottery", "pottery", "craft of shaping clay on a wheel"),
           ("bouldering", "bouldering", "indoor wall-climbing sport"), ("salsa", "salsa dancing", "Latin partner dance"),
           ("chess", "chess", "strategy board game"), ("knitting", "knitting", "yarn craft with needles"),
           ("surf", "surfing", "ocean wave sport"), ("archery", "archery", "bow-and-arrow sport"),
           ("ukulele", "the ukulele", "small four-stringed instrument"), ("Italian", "Italian", "foreign language"),
           ("jiu-jitsu", "jiu-jitsu", "grappling martial art"), ("beekeeping", "beekeeping", "hobby with hives and honey"),
           ("embroidery", "embroidery", "decorative needlework"), ("piano", "the piano", "keyboard instrument"),
           ("calligraphy", "calligraphy", "art of decorative handwriting"), ("tennis", "tennis", "racket sport"),
           ("drum", "the drums", "percussion instrument"), ("improv", "improv comedy", "unscripted theater performance"),
           ("woodworking", "woodworking", "carpentry craft"),
           ("watercolor", "watercolor painting", "art form with brushes and pigment on paper"),
           ("photography", "film photography", "camera-based art"), ("fencing", "fencing", "sword combat sport"),
           ("sign language", "sign language", "way of communicating with hand gestures"),
           ("rowing", "rowing", "crew sport on a river"), ("figure skating", "figure skating", "sport on ice"),
           ("guitar", "the guitar", "six-stringed instrument"), ("bread", "sourdough baking", "loaf-making craft"),
           ("yoga", "yoga", "mind-body stretching practice"), ("sewing", "sewing", "craft of making clothes")]
STUDIOS = ["Riverside Community Center", "the Ember Arts Collective", "Northgate Studio", "Hillside Rec Center",
           "the Foundry Workshop", "Bluebird Academy", "Lakeshore Club", "the Maple Street Studio",
           "Summit Athletic Club", "Cornerstone Arts", "Harbor Light School", "Union Hall Studio",
           "the Willow Creek YMCA", "Greenway Academy", "Oak and Iron Workshop", "Moonrise Studio",
           "Crescent Learning Center", "the Pinecone Collective", "Brick Lane Studio", "the Old Mill Art House"]

# (phrase, short noun, description without the item's own words)
ITEMS = [("a used Subaru Outback", "Subaru", "vehicle"), ("an espresso machine", "espresso machine", "coffee-making appliance"),
         ("a Kindle", "Kindle", "gadget for digital books"), ("a road bike", "road bike", "bicycle for pavement cycling"),
         ("a standing desk", "standing desk", "piece of office furniture"), ("a kayak", "kayak", "small paddle boat"),
         ("a record player", "record player", "vinyl turntable"), ("a telescope", "telescope", "stargazing equipment"),
         ("a vintage typewriter", "typewriter", "old-fashioned writing device"), ("a drone", "drone", "flying camera gadget"),
         ("a cast iron skillet", "skillet", "heavy frying pan"), ("a 3D printer", "3D printer", "machine that fabricates plastic objects"),
         ("noise-cancelling headphones", "headphones", "audio gear that blocks outside sound"),
         ("an air fryer", "air fryer", "countertop cooking gadget"), ("a four-person tent", "tent", "camping shelter"),
         ("a velvet sofa", "sofa", "living room couch"), ("a smartwatch", "smartwatch", "wrist-worn gadget"),
         ("a robot vacuum", "robot vacuum", "automated floor-cleaning device"),
         ("an electric scooter", "scooter", "battery-powered ride"), ("a stand mixer", "stand mixer", "kitchen appliance for dough and batter"),
         ("a paddleboard", "paddleboard", "board to stand on while floating on a lake"), ("a hot tub", "hot tub", "backyard spa"),
         ("a mirrorless camera", "camera", "photography gear"), ("a pizza oven", "pizza oven", "backyard appliance for flatbreads"),
         ("a gaming laptop", "laptop", "portable computer"), ("a treadmill", "treadmill", "home exercise machine for running"),
         ("an e-bike", "e-bike", "electric bicycle")]
STORES = ["Costco", "a garage sale", "Facebook Marketplace", "Best Buy", "a little shop downtown", "REI", "Target",
          "an estate sale", "Craigslist", "IKEA", "the outlet mall", "a thrift store", "Home Depot", "a pawn shop"]

EVENTS = {  # kind: (names, venues, paraphrase description of the kind)
    "concert": (["Lizzo", "Arctic Monkeys", "Hozier", "Phoebe Bridgers", "Bon Iver", "Paramore", "the Lumineers",
                 "Janelle Monae", "Vampire Weekend", "Mitski", "Florence and the Machine", "Khruangbin", "Coldplay",
                 "Maggie Rogers", "Jason Isbell", "Billie Eilish", "The National", "Kacey Musgraves", "Leon Bridges"],
                ["the Greek Theatre", "Red Rocks", "the Fillmore", "Madison Square Garden", "the Ryman", "the Gorge",
                 "the 9:30 Club", "the Hollywood Bowl", "the Orpheum", "an amphitheater by the lake"],
                "musical act perform live on stage"),
    "play": (["Hamilton", "Hadestown", "Les Miserables", "Wicked", "Death of a Salesman", "The Book of Mormon",
              "A Midsummer Night's Dream", "Come From Away", "Dear Evan Hansen", "Into the Woods"],
             ["the Fox Theatre", "the Pantages", "a tiny community theater", "the Shubert", "the Guthrie"],
             "theater production"),
    "game": (["the Celtics", "the Seattle Sounders", "the Cubs", "the Packers", "the Red Sox", "the Nuggets",
              "the Blue Jays", "the Timbers"],
             ["Fenway", "Wrigley Field", "Lambeau Field", "TD Garden", "Lumen Field", "Ball Arena"],
             "team compete from the stands"),
    "comedy": (["John Mulaney", "Ali Wong", "Hasan Minhaj", "Taylor Tomlinson", "Nate Bargatze", "Tig Notaro"],
               ["the Comedy Cellar", "the Chicago Theatre", "the Laugh Factory", "the Beacon"],
               "stand-up comic perform"),
}

# (title, author, genre word for paraphrase questions)
BOOKS = [("The Overstory", "Richard Powers", "novel"), ("Circe", "Madeline Miller", "novel"),
         ("Project Hail Mary", "Andy Weir", "novel"), ("Educated", "Tara Westover", "memoir"),
         ("The Remains of the Day", "Kazuo Ishiguro", "novel"), ("Pachinko", "Min Jin Lee", "novel"),
         ("Station Eleven", "Emily St. John Mandel", "novel"), ("Braiding Sweetgrass", "Robin Wall Kimmerer", "nonfiction work"),
         ("Demon Copperhead", "Barbara Kingsolver", "novel"), ("The Song of Achilles", "Madeline Miller", "novel"),
         ("Klara and the Sun", "Kazuo Ishiguro", "novel"), ("Lessons in Chemistry", "Bonnie Garmus", "novel"),
         ("The Midnight Library", "Matt Haig", "novel"), ("A Gentleman in Moscow", "Amor Towles", "novel"),
         ("Sapiens", "Yuval Noah Harari", "nonfiction work"), ("The Goldfinch", "Donna Tartt", "novel"),
         ("Normal People", "Sally Rooney", "novel"), ("The Martian", "Andy Weir", "novel"),
         ("Becoming", "Michelle Obama", "memoir"), ("Atomic Habits", "James Clear", "nonfiction work"),
         ("The Name of the Wind", "Patrick Rothfuss", "novel"), ("Dune", "Frank Herbert", "novel"),
         ("Little Fires Everywhere", "Celeste Ng", "novel"), ("Anxious People", "Fredrik Backman", "novel"),
         ("Tomorrow, and Tomorrow, and Tomorrow", "Gabrielle Zevin", "novel"), ("Beloved", "Toni Morrison", "novel"),
         ("Born a Crime", "Trevor Noah", "memoir"), ("The Road", "Cormac McCarthy", "novel"),
         ("Crying in H Mart", "Michelle Zauner", "memoir"), ("The Body Keeps the Score", "Bessel van der Kolk", "nonfiction work")]
BOOK_OPINIONS = ["it wrecked me in the best way", "the ending felt rushed though", "I cried on the train like a fool",
                 "slow start but so worth it", "I didn't want it to end", "honestly a bit overrated",
                 "I've been recommending it to everyone", "it took me a month but I loved it",
                 "the middle dragged but the last fifty pages were perfect", "I couldn't put it down"]

# (place, description without the place's own words)
PLACES = [("Lisbon", "Portuguese capital"), ("Kyoto", "Japanese city famous for temples"), ("Iceland", "Nordic island nation"),
          ("Banff", "Canadian mountain national park"), ("Mexico City", "huge Latin American metropolis"),
          ("the Amalfi Coast", "Italian seaside region"), ("Yosemite", "California national park"),
          ("Marrakech", "Moroccan destination"), ("New Orleans", "Louisiana jazz town"),
          ("Patagonia", "region at the southern tip of South America"), ("Seoul", "Korean capital"),
          ("Vienna", "Austrian capital"), ("Cape Cod", "Massachusetts peninsula"),
          ("the Scottish Highlands", "rugged northern part of Scotland"), ("Costa Rica", "Central American country"),
          ("Hanoi", "Vietnamese capital"), ("Nashville", "Tennessee music town"), ("Crete", "Greek island"),
          ("Quebec City", "French-speaking Canadian town"), ("the Grand Canyon", "Arizona natural wonder"),
          ("Barcelona", "Catalan seaside town"), ("Tokyo", "Japanese capital"), ("Bali", "Indonesian island"),
          ("Prague", "Czech capital"), ("the Outer Banks", "North Carolina barrier islands")]
TRIP_HIGHLIGHTS = ["a sunrise hot air balloon ride", "a cooking class with a local grandmother", "kayaking into sea caves",
                   "a night street food tour", "hiking up to a glacier", "a tiny jazz bar we stumbled into",
                   "snorkeling with sea turtles", "a day at the hot springs", "watching the sunset from an old castle wall",
                   "a bike tour through the vineyards", "a boat ride at dawn", "a flea market where I haggled for an hour",
                   "a horseback ride along the beach", "a tea ceremony in a garden", "a cable car ride over the valley"]
SOUVENIRS = ["hand-painted ceramic bowl", "wool blanket", "tin of saffron", "leather journal", "set of kitchen knives",
             "tiny oil painting", "carved wooden spoon", "bag of coffee beans", "silver bracelet", "woven rug",
             "little brass bell", "linen tablecloth"]

JOBS = ["nurse", "paralegal", "barista", "graphic designer", "chemistry teacher", "software tester", "dental hygienist",
        "sous chef", "real estate agent", "physical therapist", "librarian", "accountant", "UX researcher",
        "electrician's apprentice", "social worker", "vet tech", "pharmacist", "data analyst", "flight attendant",
        "landscape architect", "copywriter", "park ranger", "event planner", "bookkeeper"]
COMPANIES = ["Brightline Health", "Harbor and Finch", "Copper Kettle Cafe", "Northstar Legal", "Bluepeak Labs",
             "Evergreen High School", "Sunrise Dental", "Tidewater Bistro", "Keystone Realty", "Motion Physical Therapy",
             "Westside Public Library", "Granite Accounting", "Lumen Software", "Volt Electric", "County Family Services",
             "Paws and Claws Animal Hospital", "Cornerstone Pharmacy", "Atlas Analytics", "Skyward Airlines",
             "Greenleaf Design", "Inkwell Agency", "Gather Events", "Ledger and Company", "Pioneer Outfitters"]

NEIGHBORHOODS = ["Maple Heights", "the Riverside district", "Old Town", "Cedar Park", "Lincoln Square", "the Arts District",
                 "Fairview", "Elm Grove", "Harbor Point", "Willow Bend", "Sunnyside", "Brookhaven", "the West End",
                 "Highland Park", "Stonebridge", "Mill Creek", "Orchard Hill"]

OTHERS = [("coworker", None), ("neighbor", None), ("best friend", None), ("roommate", None), ("boss", None),
          ("sister-in-law", "f"), ("brother-in-law", "m"), ("old college roommate", None), ("yoga buddy", None),
          ("second cousin", None)]

# ---------------------------------------------------------------------------------------------------------------
# Small talk: a large pool that shares vocabulary with the facts (family, work, trips, food, pets, weather, ...)
# ---------------------------------------------------------------------------------------------------------------

SLOTS = {
    "rel": ["sister", "brother", "mom", "dad", "aunt", "cousin", "grandma", "in-laws", "kids", "niece", "uncle"],
    "food": ["tacos", "ramen", "lasagna", "banana bread", "pho", "curry", "pancakes", "dumplings", "chili",
             "lemon bars", "sushi", "pad thai", "mac and cheese", "shakshuka", "pierogi", "enchiladas"],
    "day": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "yesterday", "this morning",
            "last night", "the weekend"],
    "place": ["the park", "the farmers market", "the lake", "downtown", "the mall", "the beach", "the library",
              "the gym", "the coffee shop on the corner", "the hardware store", "the trail by the river"],
    "animal": ["dog", "cat", "puppy", "kitten", "bunny", "parrot", "goldfish", "hamster"],
    "weather": ["rainy", "freezing", "humid", "windy", "gray", "sticky", "gorgeous", "foggy", "snowy"],
    "feeling": ["exhausted", "weirdly calm", "anxious", "restless", "grateful", "overwhelmed", "pretty good",
                "burnt out", "hopeful", "a bit lonely"],
    "show": ["that baking competition show", "a true crime documentary", "a dumb reality show", "an old sitcom",
             "a nature documentary", "that new detective series", "a cooking show", "a space documentary"],
    "chore": ["laundry", "meal prep", "cleaning out the garage", "doing taxes", "fixing the leaky sink",
              "reorganizing the closet", "mowing the lawn", "scrubbing the bathroom"],
}

SMALL_TALK = {
    "weather": [
        "It's been so {weather} here all week, I haven't left the house except for work.",
        "The weather finally turned {weather} and I'm not ready for it.",
        "We had a huge storm {day}, the power went out for three hours.",
        "I love when it's {weather} like this, perfect excuse for soup and a blanket.",
        "The heat this week is unreal, even the {animal} next door just lies in the shade.",
        "Snow in the forecast again. I'm so over winter.",
        "The sunset {day} was ridiculous, pink and orange everywhere.",
        "Spring is finally showing up, the trees on my street are blooming.",
        "It rained on my walk home {day} and of course I had no umbrella.",
    ],
    "food": [
        "I made {food} {day} and honestly it came out better than the restaurant version.",
        "I've been craving {food} all week, I might have to give in tonight.",
        "We tried a new {food} place {day} and it was just okay, kind of overpriced.",
        "My {rel} brought over homemade {food}, I ate way too much.",
        "I'm trying to cook more at home instead of ordering takeout every night.",
        "Grocery prices are wild lately, I spent a fortune on basically nothing.",
        "Meal prep Sunday again, a giant pot of {food} for the whole week.",
        "Is it weird that I eat {food} for breakfast sometimes?",
        "I burned the {food} {day}, the smoke alarm went off and everything.",
        "We had a potluck at work and someone brought the best {food} I've ever had.",
    ],
    "work": [
        "Work has been nonstop, I had back-to-back meetings all day {day}.",
        "My manager asked me to stay late again, I'm trying to set better boundaries.",
        "We got a new person on the team and they're really sweet.",
        "I'm so tired of my commute, the traffic {day} was brutal.",
        "Had a rough day at work, a client yelled at me over something tiny.",
        "Honestly thinking about what I want to do career-wise long term.",
        "The office coffee machine broke and everyone is losing their minds.",
        "I finally finished that big project at work, such a relief.",
        "Payday can't come soon enough this month.",
        "Someone at work microwaved fish again. The whole floor smells.",
        "I had a performance review {day}, it went better than I expected.",
    ],
    "family": [
        "My {rel} called {day} and we talked for like two hours.",
        "Family dinner {day} was a lot, everyone had opinions about everything.",
        "I really miss my {rel}, we don't get to see each other enough.",
        "My {rel} keeps sending me photos of {pos} garden, it's very cute.",
        "I'm trying to be better about calling my {rel} every week.",
        "My {rel} is visiting next month, I need to clean the guest room.",
        "We were looking at old family photos {day} and I laughed so hard at my haircut.",
        "My {rel} has been having a hard time lately, I'm worried about them.",
        "Holidays with my family are always chaotic but I love it.",
        "My {rel} asked me for advice about moving, I had no idea what to say.",
    ],
    "pets": [
        "The {animal} next door barks every time I open my window.",
        "I keep watching baby animal videos on my phone instead of sleeping.",
        "I'd love to have a pet someday but my lease doesn't allow it.",
        "There was the cutest {animal} at {place} {day}, I wanted to steal it.",
        "Our building has so many dogs now, the elevator is basically a dog park.",
        "My {rel}'s {animal} is so spoiled, it has more toys than I do.",
        "I pet-sat for a friend's {animal} and now I understand why people love them.",
        "The shelter near me is always posting animals that need homes, it breaks my heart.",
        "I saw a lost {animal} poster on my street, hope they find it.",
    ],
    "travel": [
        "I really need a vacation, even just a long weekend somewhere quiet.",
        "Flights are so expensive right now, I keep checking and closing the tab.",
        "I've been daydreaming about a road trip with no plan at all.",
        "My passport expires soon, I need to deal with that before any trip.",
        "Airports stress me out so much, I always get there three hours early.",
        "I love the idea of traveling solo but I'm also kind of scared of it.",
        "We drove up to {place} {day} just to get out of the city for a bit.",
        "My {rel} just got back from a trip and won't stop showing me photos.",
        "Someday I want to take the train across the country.",
    ],
    "media": [
        "I binged {show} {day}, I have no regrets.",
        "I'm trying to read more before bed instead of scrolling.",
        "Have you watched {show}? Everyone at work is talking about it.",
        "My book club picked something really long this month, I'm way behind.",
        "I've been listening to a lot of podcasts on my walks lately.",
        "There's a movie coming out next month that I'm weirdly excited about.",
        "I started a book {day} and fell asleep after two pages, classic me.",
        "The library had a used book sale, I came home with a whole bag.",
        "Concert tickets are so expensive these days, it's ridiculous.",
        "I made a new playlist for running and it's mostly old pop songs.",
    ],
    "health": [
        "I went for a run {day} and my legs are still complaining.",
        "I've been sleeping so badly, I wake up at 3am every night.",
        "Trying to drink more water, I have one of those giant bottles now.",
        "I finally went to the doctor about my back, it's just posture apparently.",
        "My gym membership is basically a donation at this point.",
        "I did a long walk around {place} {day}, it really cleared my head.",
        "I think I'm coming down with something, my throat is scratchy.",
        "I started stretching every morning, it actually helps.",
    ],
    "feelings": [
        "I've been feeling {feeling} lately, not sure why.",
        "Honestly this week I'm just {feeling}.",
        "Some days I feel like I'm doing great and some days I just want to hide.",
        "I had a good cry {day} and I feel lighter now.",
        "I'm trying to be kinder to myself, it's harder than it sounds.",
        "Therapy has been really helpful, I'm learning a lot about myself.",
        "I journaled {day} for the first time in ages, it felt good.",
        "Do you ever just feel like time is going by way too fast?",
    ],
    "home": [
        "I spent the whole weekend on {chore}, so glamorous.",
        "My apartment is a mess, I've been putting off {chore} forever.",
        "The neighbors are renovating and the drilling starts at 7am.",
        "I bought a new plant and I'm determined not to kill this one.",
        "Our landlord finally fixed the heating, only took three months.",
        "I rearranged my living room {day} and it feels like a new place.",
        "The dishwasher broke again, so I'm washing everything by hand.",
        "I'm thinking about repainting the bedroom, something calm like sage green.",
    ],
    "social": [
        "I went to a birthday party {day} and didn't know anyone, so awkward.",
        "A friend and I had brunch at {place} {day}, we stayed for three hours.",
        "I feel like it's so hard to make new friends as an adult.",
        "We had game night at my place, I lost every single round.",
        "An old friend from school reached out out of nowhere, it was really nice.",
        "I said no to plans this weekend and I'm proud of myself.",
        "We're planning a picnic at {place} if the weather holds.",
    ],
    "plans": [
        "Any plans for the weekend? I'm hoping to do absolutely nothing.",
        "I want to try something new this year, I just don't know what yet.",
        "I keep saying I'll learn an instrument and then never do it.",
        "I signed up for a newsletter about local events, there's always something going on.",
        "I'm trying to save money this month, so lots of nights in.",
        "I need to figure out what I'm doing for my birthday.",
        "Thinking about taking a class of some kind, maybe something creative.",
    ],
}
RESPONSES = {
    "weather": ["Same here, it's been gray for days.", "Ugh, I feel that. Stay warm!", "Honestly I don't mind it, cozy season.",
                "We had the same thing here, so weird this year.", "Perfect excuse to stay in, I say."],
    "food": ["Now I'm hungry, thanks a lot.", "Okay you have to send me the recipe.", "That sounds amazing honestly.",
             "I'm the worst cook, I'm so jealous.", "Ha, no judgment here, I had cereal for dinner."],
    "work": ["That sounds exhausting, I hope it calms down soon.", "Ugh, work people, I swear.", "You deserve a break, seriously.",
             "I'm proud of you for pushing through.", "Hang in there, the weekend is close."],
    "family": ["That's so sweet, family is everything.", "Oof, family stuff can be so complicated.", "I love that you two are close.",
               "Tell them I said hi!", "I totally get that, I miss mine too."],
    "pets": ["Animals just make everything better.", "Haha, I love that so much.", "Aww, that's adorable.",
             "One day you'll get one, I know it.", "Dogs in elevators is the best thing ever."],
    "travel": ["You should totally go somewhere, even for a few days.", "Same, I need a change of scenery.",
               "Road trips are the best, no plan is the best plan.", "Airports are chaos, I feel you."],
    "media": ["Oh I need to check that out.", "Ha, same, my reading list keeps growing.", "That's the perfect way to unwind.",
              "I'm always looking for recommendations!", "Honestly same, my phone is the enemy."],
    "health": ["Take care of yourself, seriously.", "Sleep is everything, I hope it gets better.", "Good for you for sticking with it!",
               "Feel better soon!", "Walks are underrated, they help me too."],
    "feelings": ["That's completely valid. I'm here if you want to talk.", "Sending you a big hug.", "I've been there, it gets better.",
                 "I'm glad you're taking care of yourself.", "Thanks for telling me, really."],
    "home": ["Ha, the glamorous life.", "That sounds like a lot, but so satisfying when it's done.", "Ugh, landlords.",
             "Send me pictures of the new setup!", "Good luck with the plant, I believe in you."],
    "social": ["That sounds like a great time.", "Honestly making friends as an adult is so hard.", "Good for you for setting boundaries!",
               "I love game nights, invite me next time!", "That's so nice, I love when that happens."],
    "plans": ["Doing nothing is a valid plan.", "You should, you'd be great at it.", "I'm the same, always saying I'll do things.",
              "Let me know if you want company!", "Saving money is so hard right now."],
}
INTERJECTIONS = ["", "", "", "", "Honestly, ", "Haha ", "Ugh, ", "Oh man, ", "So ", "Okay so ", "Funny thing, ",
                 "Random, but ", "Anyway, "]
SMALL_TALK_QUESTIONS = ["How's your {rel} doing these days?", "Any plans for the weekend?", "How was work this week?",
                        "Did you end up trying that new {food} place?", "How are you feeling lately, really?",
                        "Watching anything good?", "How's the weather over there?", "Reading anything good lately?",
                        "Have you been sleeping better?", "How's the apartment situation?"]
SMALL_TALK_ANSWERS = ["Pretty good! Busy, but good busy.", "Not much, honestly, just trying to rest.", "Ha, don't ask. Long story.",
                      "Better than last week at least.", "Oh, same old, same old.", "Honestly kind of chaotic, but fine.",
                      "Good! Nothing exciting to report.", "Up and down, you know how it is."]

GREETINGS = ["Hey {Y}! How's your week going?", "Hi {Y}, long time no talk!", "Morning! Got a minute to catch up?",
             "Hey hey, it's been a while!", "{Y}! I have so much to tell you.", "Hi! Sorry I went quiet, things got busy.",
             "Evening! Finally sitting down after a long day.", "Hey you, how have you been?", "Hi {Y}! Happy {weekday}!",
             "Hey! Is now a good time to chat?"]
GREETING_REPLIES = ["Hey {X}! Good to hear from you.", "Hi! Doing alright, a bit tired honestly.", "Hey! Always have time for you.",
                    "Oh hi! I was just thinking about you.", "Doing okay! Just made some tea, perfect timing.",
                    "Hi {X}! It's been too long.", "Hey! Survived another week, barely."]
CLOSINGS = ["Okay I have to run, talk soon!", "This was fun, let's catch up again soon.", "I should get some sleep. Night!",
            "Gotta go start dinner, bye for now!", "Thanks for listening, I really needed this chat.",
            "Alright, I'll let you go. Talk later!"]
CLOSING_REPLIES = ["Take care, talk soon!", "Bye! Say hi to everyone for me.", "Night night!", "Anytime. Catch you later!",
                   "Bye {X}! Good luck with everything."]
LEAD_INS = ["So what's new with you?", "Anything fun happen since we last talked?", "How have things been on your end?",
            "Okay your turn, any news?", "What about you, anything exciting?", "Enough about me, how are you?",
            "Wait, didn't you say you had news?", "How's life treating you?", "Tell me something good.",
            "What have you been up to?", "Any updates from your side?", "Okay, catch me up on your week."]
GENERIC_REACTIONS = ["Oh wow, that's huge!", "No way! Tell me everything.", "That's amazing, I'm so happy for you.",
                     "Wait, really? That's so exciting.", "Okay I love this.", "Ha, of course you did. Good for you!"]
GENERIC_ELABORATIONS = ["Thanks! I'm still kind of processing it honestly.", "Yeah, it's been a good distraction from everything else.",
                        "It was a long time coming, I'm really happy about it.", "I'll send you pictures later!",
                        "Right? I keep telling everyone about it.", "I know, I didn't expect it either.",
                        "Ha, thanks. It's been a week.", "Yeah, I'm pretty excited, not going to lie.",
                        "I'll tell you more next time, it's a whole story.", "Thanks, that means a lot coming from you.",
                        "Honestly I surprised myself.", "It's been the highlight of my month for sure."]
TAILS = ["", "", "", "", "", " How about you?", " Anyway.", " Life, huh.", " Not complaining though.", " Just saying.",
         " You know how it is.", " It is what it is.", " Wild, right?", " Kind of funny actually.", " Ugh."]

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


class Pool:
    """Values drawn without replacement within one dialogue (refilled when empty)."""

    def __init__(self, rng, values):
        self.rng = rng
        self.values = list(values)
        self.left = []

    def take(self, avoid=()):
        for _ in range(3):
            if not self.left:
                self.left = list(self.values)
                self.rng.shuffle(self.left)
            for i, v in enumerate(self.left):
                if v not in avoid:
                    return self.left.pop(i)
            self.left = []
        return self.rng.choice(self.values)


def cap(s):
    return s[:1].upper() + s[1:]


def fill(rng, template, **kw):
    def slot(m):
        key = m.group(1)
        if key in kw:
            return str(kw[key])
        if key in SLOTS:
            return rng.choice(SLOTS[key])
        raise KeyError(key)
    return re.sub(r"\{(\w+)\}", slot, template)


# ---------------------------------------------------------------------------------------------------------------
# Dialogue generation
# ---------------------------------------------------------------------------------------------------------------


class Dialogue:
    def __init__(self, rng, index, speakers, n_sessions, start, turns_target):
        self.rng = rng
        self.index = index
        self.id = "conv-%02d" % index
        self.speakers = speakers  # [(name, gender), (name, gender)]; 0 = role user, 1 = role assistant
        self.n_sessions = n_sessions
        self.turns_target = turns_target
        self.facts = []  # planned facts: dict(session, owner, text, kind, ...)
        self.questions = []
        self.pools = {name: Pool(rng, values) for name, values in {
            "pet": PET_NAMES, "animal": ANIMALS, "rel": RELATIVES, "city": CITIES, "visit": VISIT_ACTIVITIES,
            "hobby": HOBBIES, "studio": STUDIOS, "item": ITEMS, "store": STORES, "book": BOOKS,
            "opinion": BOOK_OPINIONS, "place": PLACES, "highlight": TRIP_HIGHLIGHTS, "souvenir": SOUVENIRS,
            "job": JOBS, "company": COMPANIES, "nb": NEIGHBORHOODS, "other": OTHERS,
            "followup": PET_FOLLOWUPS}.items()}
        for kind, (names, venues, _) in EVENTS.items():
            self.pools["event:" + kind] = Pool(rng, names)
            self.pools["venue:" + kind] = Pool(rng, venues)
        self.session_dates = []
        d = start
        for _ in range(n_sessions):
            self.session_dates.append(d)
            d = d + dt.timedelta(days=rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 16, 19, 21, 24, 27]),
                                 hours=rng.randint(-6, 6), minutes=rng.randint(0, 59))

    # -- helpers --------------------------------------------------------------------------------------------
    def name(self, who):
        return self.speakers[who][0]

    def pron(self, who):
        return PRON[self.speakers[who][1]]

    def sess(self, lo=0.0, hi=1.0):
        a = int(lo * (self.n_sessions - 1))
        b = max(a, int(hi * (self.n_sessions - 1)))
        return self.rng.randint(a, b)

    def fact(self, who, session, text, kind, **attrs):
        f = dict(owner=who, session=session, text=text, kind=kind, id=len(self.facts), **attrs)
        self.facts.append(f)
        return f

    def month_of(self, session):
        d = self.session_dates[session]
        return "%s %d" % (MONTHS[d.month - 1], d.year)

    def ask(self, qtype, subtype, question, answer, facts, exclude_extra=(), **meta):
        self.questions.append(dict(type=qtype, subtype=subtype, question=question, answer=answer,
                                   facts=[f["id"] for f in facts], exclude=list(exclude_extra), **meta))

    def pick_paraphrase(self, templates, evidence_texts, exclude):
        """The first template sharing no content word with the evidence, else None."""
        for t in templates:
            if not shared_stems(t, evidence_texts, exclude):
                return t
        return None

    # -- fact planners ----------------------------------------------------------------------------------------
    def plan_person(self, who):
        rng = self.rng
        P = self.name(who)
        she, her_obj, her = self.pron(who)
        names_excl = [self.name(0), self.name(1)]

        # Pets: one or two adoptions, each with a later follow-up (multi-hop), and a childhood pet (distractor).
        pets = []
        for _ in range(rng.choice([1, 2])):
            animal, texture = self.pools["animal"].take()
            pname = self.pools["pet"].take()
            g = rng.choice("fm")
            ps, po, pp = PRON[g]
            s = self.sess(0.0, 0.75)
            text = fill(rng, rng.choice([
                "I finally did it, I adopted a {animal} from the rescue on {weekday}! {Ps} is called {pname}.",
                "Big news: we brought home a little {animal} named {pname} this weekend.",
                "Meet {pname}, our new {animal}! Picked {po} up from a shelter and {ps} already owns the couch.",
                "So I may have adopted a {animal}. {Ps}'s named {pname} and {ps} is perfect.",
            ]), animal=animal, pname=pname, Ps=cap(ps), ps=ps, po=po, weekday=rng.choice(SLOTS["day"][:7]))
            f = self.fact(who, s, text, "pet", animal=animal, pet=pname, texture=texture, pron=(ps, po, pp),
                          reactions=["Aww, {pet} is such a cute name! I need pictures immediately.",
                                     "A {animal}? No way! How is {pron} settling in?",
                                     "Congrats!! Pets make everything better."],
                          elaborations=["{Pron} is still a bit shy, hides under the bed most of the day.",
                                        "Honestly it was love at first sight."])
            pets.append(f)
            ex = names_excl
            self.ask("entity", "pet-name", rng.choice(["What is the name of {P}'s {animal}?",
                                                       "What did {P} name {her} {animal}?"]).format(P=P, animal=animal, her=her),
                     pname, [f])
            para = self.pick_paraphrase([
                "What does {P} call the {texture} companion {she} took in?".format(P=P, texture=texture, she=she),
                "How is {P}'s newest {texture} household member called?".format(P=P, texture=texture),
                "Which nickname belongs to the creature {P} welcomed into {her} household?".format(P=P, her=her),
            ], [text], ex)
            if para:
                self.ask("paraphrase", "pet-name", para, pname, [f])
            if rng.random() < 0.6:
                self.ask("temporal", "when", "When did {P} adopt {pname}?".format(P=P, pname=pname), self.month_of(s), [f])
            if s + 2 < self.n_sessions:
                tmpl, q, ans = self.pools["followup"].take()
                s2 = rng.randint(s + 1, min(self.n_sessions - 1, s + 8))
                t2 = tmpl.format(name=pname, pron=ps, obj=po, pos=pp)
                f2 = self.fact(who, s2, t2, "pet-followup", pet=pname,
                               reactions=["Oh no, poor {pet}!", "Haha, {pet} is a character.", "Pets are so funny."])
                self.ask("multi-hop", "pet", q.format(P=P, animal=animal), ans, [f, f2])
        # A childhood pet: same kind of fact, another time (distractor only).
        animal, _ = self.pools["animal"].take()
        self.fact(who, self.sess(), fill(rng, "When I was little we had a {animal} named {pname}, {ps} lived to be fifteen.",
                                         animal=animal, pname=self.pools["pet"].take(), ps=rng.choice(["she", "he"])),
                  "distractor", reactions=["That's so sweet, childhood pets are the best."])

        # Relatives who moved (then a visit: multi-hop), sometimes preceded by a plan naming another city.
        for _ in range(rng.choice([1, 2])):
            rel, g, relsyn = self.pools["rel"].take()
            city = self.pools["city"].take()
            rs, ro, rp = PRON[g]
            s = self.sess(0.1, 0.8)
            if rng.random() < 0.5 and s > 0:
                other_city = self.pools["city"].take()
                self.fact(who, rng.randint(0, s - 1),
                          "My {rel} keeps talking about moving somewhere new, maybe {c}. We'll see.".format(rel=rel, c=other_city),
                          "distractor", reactions=["Change can be good! Would you visit?"])
            text = rng.choice([
                "My {rel} packed everything up and moved to {city} last week, {rs} got an apartment by the water.",
                "So my {rel} officially moved to {city}! I'm going to miss having {ro} close by.",
                "Big family news: my {rel} moved to {city} for a fresh start.",
            ]).format(rel=rel, city=city, rs=rs, ro=ro)
            f = self.fact(who, s, text, "moved", rel=rel, city=city,
                          reactions=["{city}? That's a big change! Are you going to visit?",
                                     "Oh wow, you must miss {obj} already.", "I've heard good things about {city}!"],
                          pron=(rs, ro, rp))
            self.ask("entity", "relative-city", rng.choice(["Where did {P}'s {rel} move?",
                                                            "Which city did {P}'s {rel} move to?"]).format(P=P, rel=rel),
                     city, [f])
            para = self.pick_paraphrase([
                "In what place has {P}'s {syn} settled down?".format(P=P, syn=relsyn),
                "Where does {P}'s {syn} reside these days?".format(P=P, syn=relsyn),
                "Which town is {P}'s {syn} based in now?".format(P=P, syn=relsyn),
            ], [text], names_excl)
            if para:
                self.ask("paraphrase", "relative-city", para, city, [f])
            if rng.random() < 0.5:
                self.ask("temporal", "when", "When did {P}'s {rel} move to {city}?".format(P=P, rel=rel, city=city),
                         self.month_of(s), [f])
            if s + 2 < self.n_sessions and rng.random() < 0.85:
                s2 = rng.randint(s + 1, min(self.n_sessions - 1, s + 10))
                act = self.pools["visit"].take().format(pos=rp)
                t2 = "Back from visiting my {rel}! We {act}, it was the best weekend.".format(rel=rel, act=act)
                f2 = self.fact(who, s2, t2, "visit", reactions=["That sounds like so much fun!", "I love that you two got that time."])
                self.ask("multi-hop", "visit", "What did {P} do while visiting {city}?".format(P=P, city=city), act, [f, f2])
            if s + 2 < self.n_sessions and rng.random() < 0.5:
                s3 = rng.randint(s + 1, min(self.n_sessions - 1, s + 12))
                gift = self.pools["souvenir"].take()
                t3 = "A package came from my {rel} today: a {g} from a little market near {ro}. So thoughtful.".format(
                    rel=rel, g=gift, ro="her" if g == "f" else "him")
                f3 = self.fact(who, s3, t3, "gift", reactions=["That's so sweet of them!", "Aww, what a thoughtful gift."])
                self.ask("multi-hop", "gift", "What was {P} sent from {city}?".format(P=P, city=city), gift, [f, f3])

        # Hobbies: lessons somewhere, sometimes after a failed earlier try at another hobby (distractor).
        for _ in range(rng.choice([2, 3])):
            lesson, phrase, desc = self.pools["hobby"].take()
            studio = self.pools["studio"].take()
            s = self.sess()
            text = rng.choice([
                "I signed up for {lesson} lessons at {studio}, first class was {day} and I loved it.",
                "Guess who got into {phrase}? Me! I take classes at {studio} twice a week now.",
                "I've been doing {phrase} at {studio} since the start of the month, best thing for my stress.",
            ]).format(lesson=lesson, phrase=phrase, studio=studio, day=rng.choice(SLOTS["day"][:7]))
            f = self.fact(who, s, text, "hobby", phrase=phrase,
                          reactions=["{Phrase}? I love that for you!", "That's so cool, I've always wanted to try that.",
                                     "Look at you trying new things!"])
            self.ask("entity", "hobby-place", rng.choice(["Where does {P} take {lesson} lessons?",
                                                          "Which place offers the {lesson} classes {P} goes to?"]).format(P=P, lesson=lesson),
                     studio, [f])
            para = self.pick_paraphrase([
                "Which {desc} did {P} begin to learn?".format(desc=desc, P=P),
                "What pastime has {P} recently taken up?".format(P=P),
                "Which leisure activity is {P} pursuing lately?".format(P=P),
            ], [text], names_excl)
            if para:
                self.ask("paraphrase", "hobby", para, phrase, [f])
            if rng.random() < 0.45:
                self.ask("temporal", "when", "When did {P} start {phrase}?".format(P=P, phrase=phrase), self.month_of(s), [f])
        if rng.random() < 0.6:
            _, phrase, _ = self.pools["hobby"].take()
            self.fact(who, self.sess(), "I tried {p} back in college and was truly terrible at it.".format(p=phrase),
                      "distractor", reactions=["Ha, everyone's bad at first!"])

        # Purchases, plus an item only wished for (distractor).
        for _ in range(rng.choice([3, 4, 4])):
            item, noun, desc = self.pools["item"].take()
            store = self.pools["store"].take()
            price = rng.choice([40, 85, 120, 150, 200, 250, 320, 450, 600, 900, 1200, 2500, 8000])
            s = self.sess()
            text = rng.choice([
                "I finally bought {item}! Got it for ${price} at {store}.",
                "Treated myself to {item} from {store}, ${price}, no regrets.",
                "Okay I caved and got {item}. Found it at {store} for ${price}.",
            ]).format(item=item, store=store, price=price)
            f = self.fact(who, s, text, "purchase", noun=noun,
                          reactions=["Ooh, {noun}! Is it as good as you hoped?", "Nice, that's a great deal.",
                                     "Treat yourself, you deserve it."])
            self.ask("entity", "purchase", rng.choice(["Where did {P} buy the {noun}?", "How much did {P} pay for the {noun}?"])
                     .format(P=P, noun=noun), "%s, $%d" % (store, price), [f])
            para = self.pick_paraphrase([
                "Which {desc} did {P} acquire?".format(desc=desc, P=P),
                "What did {P} recently spend money on?".format(P=P),
            ], [text], names_excl)
            if para:
                self.ask("paraphrase", "purchase", para, item, [f])
            if rng.random() < 0.45:
                self.ask("temporal", "when", "When did {P} buy the {noun}?".format(P=P, noun=noun), self.month_of(s), [f])
        if rng.random() < 0.7:
            item, _, _ = self.pools["item"].take()
            self.fact(who, self.sess(), "I've been eyeing {i} online for weeks but I can't justify the price.".format(i=item),
                      "distractor", reactions=["Put it on your birthday list!"])

        # Events attended, sometimes announced in an earlier session (distractor: plan, not attendance).
        for _ in range(rng.choice([3, 4])):
            kind = rng.choice(["concert", "concert", "play", "game", "comedy"])
            ename = self.pools["event:" + kind].take()
            venue = self.pools["venue:" + kind].take()
            s = self.sess(0.05, 1.0)
            verb = {"concert": "see", "play": "see", "game": "watch", "comedy": "see"}[kind]
            text = {"concert": "Went to see {n} at {v} on {d}, the encore was unreal.",
                    "play": "We saw {n} at {v} on {d}, I was a mess by the second act.",
                    "game": "Went to watch {n} at {v} on {d}, the crowd was so loud my ears are still ringing.",
                    "comedy": "Saw {n} do a comedy set at {v} on {d}, I laughed until I cried."}[kind] \
                .format(n=ename, v=venue, d=rng.choice(SLOTS["day"][:7]))
            if s > 0 and rng.random() < 0.5:
                self.fact(who, rng.randint(max(0, s - 4), s - 1),
                          "I just got tickets to {verb} {n} next month, can't wait!".format(verb=verb, n=ename),
                          "distractor", reactions=["Ahh, jealous! Have the best time."])
            f = self.fact(who, s, text, "event", ename=ename,
                          reactions=["{Ename}! How was it?", "Oh that sounds like an incredible night.", "So jealous right now."])
            self.ask("entity", "event-venue", "Where did {P} {verb} {n}?".format(P=P, verb=verb, n=ename), venue, [f])
            desc = EVENTS[kind][2]
            para = self.pick_paraphrase([
                "Which {d} did {P} get to witness?".format(d=desc, P=P),
                "What outing did {P} enjoy recently?".format(P=P),
            ], [text], names_excl)
            if para:
                self.ask("paraphrase", "event", para, ename, [f])
            if rng.random() < 0.55:
                self.ask("temporal", "when", "When did {P} {verb} {n}?".format(P=P, verb=verb, n=ename), self.month_of(s), [f])

        # Jobs: a first job, then one or two changes (update questions ask for the current and previous one).
        n_jobs = rng.choice([2, 2, 3])
        js = sorted(rng.sample(range(self.n_sessions), n_jobs))
        jobs = []
        for i, s in enumerate(js):
            role = self.pools["job"].take()
            comp = self.pools["company"].take()
            if i == 0:
                text = rng.choice(["I got the job!! Starting Monday as a {r} at {c}.",
                                   "First week as a {r} at {c} done, my feet hurt but I love the team."]).format(r=role, c=comp)
            else:
                text = rng.choice(["Big change: I left {p} and started as a {r} at {c} this week.",
                                   "I did it, I quit {p}! I'm a {r} at {c} now, day three and so far so good."]) \
                    .format(r=role, c=comp, p=jobs[-1]["company"])
            f = self.fact(who, s, text, "job", role=role, company=comp,
                          reactions=["Congrats!! That's a big deal.", "{Company}? Fancy! How are the people?",
                                     "New job energy, I love it."])
            jobs.append(f)
            self.ask("entity", "job-role", "What position did {P} take at {c}?".format(P=P, c=comp), role, [f])
            if rng.random() < 0.45:
                self.ask("temporal", "when", "When did {P} start working at {c}?".format(P=P, c=comp), self.month_of(s), [f])
        self.ask("update", "current-job", rng.choice(["What is {P}'s current job?", "Where does {P} work now?",
                                                      "What does {P} do for a living these days?"]).format(P=P),
                 "%s at %s" % (jobs[-1]["role"], jobs[-1]["company"]), [jobs[-1]])
        self.ask("update", "previous-job", "What job did {P} have before working at {c}?".format(P=P, c=jobs[-1]["company"]),
                 "%s at %s" % (jobs[-2]["role"], jobs[-2]["company"]), [jobs[-2], jobs[-1]])

        # Books read, plus one given up on (distractor).
        for _ in range(rng.choice([2, 3, 3])):
            title, author, genre = self.pools["book"].take()
            opinion = self.pools["opinion"].take()
            s = self.sess()
            text = rng.choice(["Just finished {t} by {a}, {o}.", "I stayed up way too late reading {t} by {a}, {o}."]) \
                .format(t=title, a=author, o=opinion)
            f = self.fact(who, s, text, "book", title=title,
                          reactions=["Ooh, {title} has been on my list forever.", "I need to read that!", "Adding it to my list."])
            self.ask("entity", "book", rng.choice(["What did {P} think of {t}?", "Who wrote {t}, which {P} read?"])
                     .format(P=P, t=title), "%s (%s)" % (opinion, author), [f])
            para = self.pick_paraphrase([
                "Which {g} did {P} recently get through?".format(g=genre, P=P),
                "What title has {P} been absorbed in lately?".format(P=P),
            ], [text], names_excl)
            if para:
                self.ask("paraphrase", "book", para, title, [f])
            if rng.random() < 0.4:
                self.ask("temporal", "when", "When did {P} read {t}?".format(P=P, t=title), self.month_of(s), [f])
        title, _, _ = self.pools["book"].take()
        self.fact(who, self.sess(), "I started {t} but gave up halfway, it just didn't click for me.".format(t=title),
                  "distractor", reactions=["Life's too short for books you don't love."])

        # Trips, sometimes daydreamed about first (distractor) and with a souvenir mentioned later (multi-hop).
        for _ in range(rng.choice([2, 2, 3])):
            place, desc = self.pools["place"].take()
            hl = self.pools["highlight"].take()
            s = self.sess(0.05, 0.9)
            if s > 0 and rng.random() < 0.4:
                self.fact(who, rng.randint(0, s - 1), "I'm daydreaming about a trip to {p} sometime this year.".format(p=place),
                          "distractor", reactions=["Do it! You deserve a trip."])
            text = rng.choice(["We just got back from {p}! The best part was {h}.", "Home from {p} and already missing it. Highlight: {h}."]) \
                .format(p=place, h=hl)
            f = self.fact(who, s, text, "trip", place=place,
                          reactions=["{Place}! That sounds like a dream.", "Welcome back! Show me photos.", "I'm so jealous, wow."])
            self.ask("entity", "trip", "What was the highlight of {P}'s trip to {p}?".format(P=P, p=place), hl, [f])
            para = self.pick_paraphrase([
                "Which {d} did {P} travel to?".format(d=desc, P=P),
                "Where did {P} vacation recently?".format(P=P),
            ], [text], names_excl)
            if para:
                self.ask("paraphrase", "trip", para, place, [f])
            if rng.random() < 0.45:
                self.ask("temporal", "when", "When did {P} go to {p}?".format(P=P, p=place), self.month_of(s), [f])
            if s + 2 < self.n_sessions and rng.random() < 0.6:
                sv = self.pools["souvenir"].take()
                s2 = rng.randint(s + 1, min(self.n_sessions - 1, s + 8))
                f2 = self.fact(who, s2, "Still using the {sv} I picked up on that trip every single day.".format(sv=sv),
                               "souvenir", reactions=["Best kind of souvenir, one you actually use."])
                self.ask("multi-hop", "souvenir", "What did {P} bring back from {p}?".format(P=P, p=place), sv, [f, f2])

        # Homes: one or two moves (update questions).
        homes = []
        for i, s in enumerate(sorted(rng.sample(range(self.n_sessions), rng.choice([1, 2, 2])))):
            nb = self.pools["nb"].take()
            text = (["We signed the lease on a place in {nb}! Two bedrooms and a tiny balcony.",
                     "Keys in hand: we're officially living in {nb} now."][rng.randint(0, 1)] if i == 0 else
                    "Moving again, can you believe it? We bought a little house in {nb}.").format(nb=nb)
            f = self.fact(who, s, text, "home", nb=nb, reactions=["{Nb}! Congrats on the new place!", "Housewarming party when?"])
            homes.append(f)
            if rng.random() < 0.5:
                self.ask("temporal", "when", "When did {P} move to {nb}?".format(P=P, nb=nb), self.month_of(s), [f])
        self.ask("update", "current-home", "Which neighborhood does {P} live in now?".format(P=P), homes[-1]["nb"], [homes[-1]])
        if len(homes) > 1:
            self.ask("update", "previous-home", "Where did {P} live before moving to {nb}?".format(P=P, nb=homes[-1]["nb"]),
                     homes[-2]["nb"], [homes[-2]])

        # Third-party facts: the same kinds of fact about someone else, spoken by this person.
        for _ in range(rng.choice([6, 7, 8])):
            other, og = self.pools["other"].take()
            og = og or rng.choice("fm")
            os_, oo, op = PRON[og]
            s = self.sess()
            kind = rng.choice(["pet", "purchase", "event", "book", "trip", "hobby"])
            if kind == "pet":
                animal = pets[0]["animal"] if rng.random() < 0.5 else self.pools["animal"].take()[0]
                pname = self.pools["pet"].take()
                text = "My {o} adopted a {a} named {n}, {s} sends me pictures nonstop.".format(o=other, a=animal, n=pname, s=os_)
                q, ans = "What is the name of the {a} {P}'s {o} adopted?".format(a=animal, P=P, o=other), pname
            elif kind == "purchase":
                item, noun, _ = self.pools["item"].take()
                text = "My {o} just bought {i}, now I kind of want one too.".format(o=other, i=item)
                q, ans = "What did {P}'s {o} buy that {P} wants too?".format(P=P, o=other), item
            elif kind == "event":
                ek = rng.choice(["concert", "play", "comedy"])
                ename = self.pools["event:" + ek].take()
                text = "My {o} went to see {n} and won't stop talking about it.".format(o=other, n=ename)
                q, ans = "Who or what did {P}'s {o} go to see?".format(P=P, o=other), ename
            elif kind == "book":
                title, _, _ = self.pools["book"].take()
                text = "My {o} lent me {t}, apparently it's life-changing.".format(o=other, t=title)
                q, ans = "Which book did {P}'s {o} lend {obj}?".format(P=P, o=other, obj=her_obj), title
            elif kind == "trip":
                place, _ = self.pools["place"].take()
                text = "My {o} is in {p} right now and the photos are unreal.".format(o=other, p=place)
                q, ans = "Where was {P}'s {o} traveling?".format(P=P, o=other), place
            else:
                _, phrase, _ = self.pools["hobby"].take()
                text = "My {o} started {p} and keeps trying to recruit me.".format(o=other, p=phrase)
                q, ans = "What hobby did {P}'s {o} start?".format(P=P, o=other), phrase
            f = self.fact(who, s, text, "third-party", reactions=["Ha, that's great.", "Oh fun! Are you going to join?",
                                                                  "Your {other} sounds like a lot of fun."], other=other)
            if rng.random() < 0.9:
                self.ask("entity", "third-party", q, ans, [f])

    def plan_month_questions(self):
        """'What did X do in <Month YYYY>' questions: evidence = that person's facts of that kind in that month."""
        rng = self.rng
        verbs = {"pet": "Which animal did {P} adopt in {M}?", "moved": "Which of {P}'s relatives moved away in {M}?",
                 "hobby": "What hobby did {P} start in {M}?", "purchase": "What did {P} buy in {M}?",
                 "event": "What event did {P} go to in {M}?", "job": "Where did {P} start a new job in {M}?",
                 "book": "What book did {P} finish in {M}?", "trip": "Where did {P} travel in {M}?",
                 "home": "Where did {P} move in {M}?"}
        groups = {}
        for f in self.facts:
            if f["kind"] in verbs:
                groups.setdefault((f["owner"], f["kind"], self.month_of(f["session"])), []).append(f)
        keys = sorted(groups, key=lambda k: (k[0], k[1], k[2]))
        for key in keys:
            who, kind, month = key
            if rng.random() < 0.45:
                facts = groups[key]
                self.ask("temporal", "month", verbs[kind].format(P=self.name(who), M=month),
                         "; ".join(f["text"] for f in facts), facts, month=month)
        # Open questions about a whole month.
        months = {}
        for f in self.facts:
            if f["kind"] in verbs:
                months.setdefault((f["owner"], self.month_of(f["session"])), []).append(f)
        for (who, month) in sorted(months):
            if rng.random() < 0.15:
                facts = months[(who, month)]
                self.ask("temporal", "month-open", "What did {P} do in {M}?".format(P=self.name(who), M=month),
                         "; ".join(f["text"] for f in facts), facts, month=month)

    # -- turns ---------------------------------------------------------------------------------------------------
    def small_talk_segment(self, first):
        rng = self.rng
        topic = rng.choice(sorted(SMALL_TALK))
        out = []
        who = first
        if rng.random() < 0.2:
            out.append((who, fill(rng, rng.choice(SMALL_TALK_QUESTIONS))))
            out.append((1 - who, rng.choice(SMALL_TALK_ANSWERS) + " " + self.statement(rng.choice(sorted(SMALL_TALK)), 1 - who)))
            out.append((who, rng.choice(RESPONSES[topic])))
            return out
        out.append((who, self.statement(topic, who)))
        out.append((1 - who, rng.choice(RESPONSES[topic]) if rng.random() < 0.55 else self.statement(topic, 1 - who)))
        if rng.random() < 0.5:
            out.append((who, self.statement(topic, who)))
            if rng.random() < 0.5:
                out.append((1 - who, rng.choice([r for r in RESPONSES[topic] if r != out[1][1]])))
        return out

    def statement(self, topic, who):
        rng = self.rng
        s = fill(rng, rng.choice(SMALL_TALK[topic]), pos=rng.choice(["her", "his"]))
        pre = rng.choice(INTERJECTIONS)
        if pre:
            s = pre + s[0].lower() + s[1:] if not s.startswith("I ") and not s.startswith("I'") else pre + s
        if rng.random() < 0.3:  # people often say two things in one message
            s += " " + fill(rng, rng.choice(SMALL_TALK[rng.choice(sorted(SMALL_TALK))]), pos=rng.choice(["her", "his"]))
        elif not s.endswith("?"):
            s += rng.choice(TAILS)
        return s

    def fact_segment(self, f):
        rng = self.rng
        who = f["owner"]
        other = 1 - who
        kw = {k: v for k, v in f.items() if isinstance(v, str)}
        pron = f.get("pron") or ("they", "them", "their")
        kw.update(pron=pron[0], Pron=cap(pron[0]), obj=pron[1])
        for k in list(kw):
            kw[cap(k)] = cap(kw[k]) if isinstance(kw[k], str) else kw[k]
        out = [(who, f["text"], f["id"])]
        reaction = rng.choice(f.get("reactions") or GENERIC_REACTIONS) if rng.random() < 0.75 else rng.choice(GENERIC_REACTIONS)
        try:
            reaction = reaction.format(**kw)
        except (KeyError, IndexError):
            reaction = rng.choice(GENERIC_REACTIONS)
        out.append((other, reaction, None))
        if rng.random() < 0.5:
            el = rng.choice(f.get("elaborations") or GENERIC_ELABORATIONS) if rng.random() < 0.5 else rng.choice(GENERIC_ELABORATIONS)
            try:
                el = el.format(**kw)
            except (KeyError, IndexError):
                el = rng.choice(GENERIC_ELABORATIONS)
            out.append((who, el, None))
        return out

    def build(self):
        rng = self.rng
        per_session = {}
        for f in self.facts:
            per_session.setdefault(f["session"], []).append(f)
        sessions = []
        turn_index = 0
        fact_turn = {}
        for si in range(self.n_sessions):
            target = max(12, int(round(self.turns_target / self.n_sessions * rng.uniform(0.75, 1.25))))
            start = self.session_dates[si]
            X = rng.randint(0, 1)
            lines = [(X, fill(rng, rng.choice(GREETINGS), Y=self.name(1 - X), weekday=start.strftime("%A")), None),
                     (1 - X, fill(rng, rng.choice(GREETING_REPLIES), X=self.name(X)), None)]
            facts = list(per_session.get(si, []))
            rng.shuffle(facts)
            n_fact_turns = sum(3 for _ in facts)
            n_filler_segments = max(1, int(round((target - 4 - n_fact_turns) / 2.8)))
            segments = [("fact", f) for f in facts] + [("talk", None)] * n_filler_segments
            rng.shuffle(segments)
            for kind, f in segments:
                last = lines[-1][0]
                if kind == "fact":
                    if last == f["owner"]:
                        lines.append((1 - f["owner"], rng.choice(LEAD_INS), None))
                    lines.extend(self.fact_segment(f))
                else:
                    lines.extend((w, t, None) for w, t in self.small_talk_segment(1 - last))
            last = lines[-1][0]
            lines.append((1 - last, rng.choice(CLOSINGS), None))
            lines.append((last, fill(rng, rng.choice(CLOSING_REPLIES), X=self.name(1 - last)), None))
            t = start
            turns = []
            for j, (who, text, fid) in enumerate(lines):
                if j:
                    t = t + dt.timedelta(seconds=rng.randint(8, 240))
                turns.append({"index": turn_index, "role": "user" if who == 0 else "assistant", "speaker": self.name(who),
                              "content": text, "occurredAt": t.strftime("%Y-%m-%dT%H:%M:%SZ")})
                if fid is not None:
                    fact_turn[fid] = turn_index
                turn_index += 1
            sessions.append({"index": si, "date": start.strftime("%Y-%m-%dT%H:%M:%SZ"), "turns": turns})
        return sessions, fact_turn


def generate(seed, n_dialogues, turns_per_dialogue):
    rng = random.Random(seed)
    people = list(PEOPLE)
    rng.shuffle(people)
    dialogues, questions = [], []
    for d in range(n_dialogues):
        a, b = people[(2 * d) % len(people)], people[(2 * d + 1) % len(people)]
        n_sessions = rng.randint(20, 30)
        start = dt.datetime(2022, 1, 10, 0, 0) + dt.timedelta(days=rng.randint(0, 420), hours=rng.randint(8, 20),
                                                               minutes=rng.randint(0, 59))
        dia = Dialogue(random.Random(rng.random()), d, [a, b], n_sessions, start, turns_per_dialogue)
        dia.plan_person(0)
        dia.plan_person(1)
        dia.plan_month_questions()
        sessions, fact_turn = dia.build()
        turns = {t["index"]: t for s in sessions for t in s["turns"]}
        dialogues.append({"id": dia.id, "userId": "bench-" + dia.id,
                          "speakers": {"user": a[0], "assistant": b[0]}, "sessions": sessions})
        for q in dia.questions:
            evidence = sorted({fact_turn[fid] for fid in q["facts"]})
            texts = [turns[i]["content"] for i in evidence]
            shared = shared_stems(q["question"], texts, [a[0], b[0]] + q["exclude"])
            if q["type"] == "paraphrase" and shared:
                raise AssertionError("paraphrase shares words: %s %s" % (q, shared))
            out = {"id": "q%04d" % (len(questions) + 1), "dialogueId": dia.id, "type": q["type"],
                   "subtype": q["subtype"], "question": q["question"], "answer": q["answer"], "evidence": evidence,
                   "sharedWords": shared}
            if "month" in q:
                out["month"] = q["month"]
            questions.append(out)
    return {"meta": {"generator": "bench/retrieval/generate.py", "version": GENERATOR_VERSION, "seed": seed,
                     "dialogues": len(dialogues),
                     "turns": sum(len(s["turns"]) for d in dialogues for s in d["sessions"]),
                     "questions": len(questions)},
            "dialogues": dialogues, "questions": questions}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=20240501)
    ap.add_argument("--dialogues", type=int, default=10)
    ap.add_argument("--turns", type=int, default=600, help="target turns per dialogue")
    ap.add_argument("--out", default="/tmp/memoir-retrieval-bench/data.json")
    args = ap.parse_args()
    data = generate(args.seed, args.dialogues, args.turns)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(data, fh, indent=1)
    counts = {}
    for q in data["questions"]:
        counts[q["type"]] = counts.get(q["type"], 0) + 1
    per_dialogue = [sum(len(s["turns"]) for s in d["sessions"]) for d in data["dialogues"]]
    print("wrote %s: %d dialogues, %d turns (%d-%d per dialogue), %d questions %s"
          % (args.out, data["meta"]["dialogues"], data["meta"]["turns"], min(per_dialogue), max(per_dialogue),
             data["meta"]["questions"], json.dumps(counts, sort_keys=True)), file=sys.stderr)


if __name__ == "__main__":
    main()
