#!/usr/bin/env python3
"""Writes large vocabulary files for measuring: a user vocabulary JSON and an AppIntentVocabulary.plist.

Usage: make-vocabulary.py [--user N] [--global N] OUT_DIR
Names are made of random words (a quarter with a number), so they rarely collide with real requests.
"""
import argparse, json, os, plistlib, random

WORDS = ("amber basalt cobalt delta ember fjord garnet harbor indigo juniper kestrel lumen marlin nectar onyx "
         "prairie quartz raven saffron tundra umber vesper willow xenon yonder zephyr aurora bramble cinder "
         "dune echo falcon glacier hollow ivory jasper karma lagoon meadow nimbus orchid pebble quiver rust "
         "sierra thistle ultra velvet wander yarrow zenith").split()

def name(rng):
    words = [rng.choice(WORDS).title() for _ in range(rng.randint(2, 4))]
    if rng.random() < 0.25:
        words.insert(rng.randrange(len(words) + 1), str(rng.choice([7, 12, 21, 50, 99, 1984, 2020])))
    return " ".join(words)

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--user", type=int, default=10_000)
    ap.add_argument("--global", dest="global_", type=int, default=100_000)
    ap.add_argument("out")
    a = ap.parse_args()
    rng = random.Random(7)
    os.makedirs(a.out, exist_ok=True)
    types = ["mediaPlaylistTitle", "mediaMusicArtistName", "mediaAudiobookTitle", "mediaAudiobookAuthorName", "mediaShowTitle"]
    user = {t: [] for t in types}
    for i in range(a.user):
        user[types[i % len(types)]].append(name(rng))
    with open(os.path.join(a.out, "user.json"), "w") as f:
        json.dump(user, f)
    params = ["playlistTitle", "musicArtistName", "audiobookTitle", "audiobookAuthorName", "showTitle"]
    groups = []
    per_item = 2
    for p, param in enumerate(params):
        items = [{"VocabularyItemIdentifier": f"{param}-{i}",
                  "VocabularyItemSynonyms": [{"VocabularyItemPhrase": name(rng)} for _ in range(per_item)]}
                 for i in range(a.global_ // per_item // len(params))]
        groups.append({"ParameterNames": [f"INPlayMediaIntent.{param}"], "ParameterVocabulary": items})
    with open(os.path.join(a.out, "AppIntentVocabulary.plist"), "wb") as f:
        plistlib.dump({"ParameterVocabularies": groups}, f)
    print(f"{a.user} user entries, {a.global_} global synonyms in {a.out}")

if __name__ == "__main__":
    main()
