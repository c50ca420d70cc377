#!/usr/bin/env python3
"""Wraps grammar lines over 200 characters without changing what the YAML says.

A long double- or single-quoted template is broken at one of its spaces (YAML folds a line break inside a
quoted scalar into one space, so the string read is the same), or, in a double-quoted one without a space
near, after a `|` with an escaped line break (a `\` at the end of the line: joined with nothing between); a long flow list (`[a, b, c]`) is broken
after a comma; a long comment is continued on a comment line. Every file is read with PyYAML before and
after, and left as it was unless both readings are equal. `mediaparse lint` finds what is left.

    python3 Scripts/wrap-grammar-lines.py Grammars            # rewrite in place
    python3 Scripts/wrap-grammar-lines.py --check Grammars    # list the lines it would wrap
"""
import os
import sys

import yaml

LIMIT = 200
WIDTH = 150  # where a wrapped line is cut, leaving room for the indentation


def wrap_line(line):
    if len(line) <= LIMIT:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    stripped = line.lstrip(" ")
    if stripped.startswith("#"):
        words, out, cur = stripped[1:].split(" "), [], " " * indent + "#"
        for w in words:
            if len(cur) + len(w) + 1 > WIDTH and cur.strip() != "#":
                out.append(cur)
                cur = " " * indent + "#"
            cur += " " + w if w else ""
        out.append(cur)
        return out
    # A plain list item ("- (a|b|c)") is quoted first, so that it can be cut like a quoted one.
    item = stripped[2:] if stripped.startswith("- ") else None
    if item and item[0] not in "\"'[{&*!|>%@`#" and '"' not in item and "\\" not in item and " #" not in item \
            and ": " not in item:
        line = " " * indent + '- "' + item + '"'
    # Cut points: spaces inside a quoted scalar, or ", " inside a flow sequence/mapping outside quotes.
    cuts, quote, depth = [], None, 0
    for i, c in enumerate(line):
        if quote:
            if c == quote and not (quote == '"' and line[i - 1] == "\\"):
                quote = None
            elif c == " " and i > indent + 4:
                cuts.append(("q", i))
            elif c == "|" and quote == '"' and i > indent + 4:
                cuts.append(("e", i + 1))  # an escaped line break: YAML joins the lines with nothing between
        elif c in "\"'" and (i == 0 or line[i - 1] in " [{:,-"):
            quote = c
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif c == "#" and line[i - 1] == " ":
            break
        elif c == "," and depth > 0 and i + 1 < len(line) and line[i + 1] == " ":
            cuts.append(("f", i + 1))
    if not cuts:
        return [line]
    out, start, cont = [], 0, " " * (indent + 4)
    prefix = ""
    while len(prefix) + len(line) - start > LIMIT:
        limit = start + WIDTH - len(prefix)
        best = [c for c in cuts if start < c[1] <= limit]
        if not best:
            best = [c for c in cuts if c[1] > start][:1]
            if not best:
                break
        spaces = [c for c in best if c[0] != "e"]
        kind, at = (spaces or best)[-1]
        if kind == "e":
            out.append(prefix + line[start:at] + "\\")
            start = at
        else:
            out.append(prefix + line[start:at].rstrip(" ") if kind == "f" else prefix + line[start:at])
            start = at + 1
        prefix = cont
    out.append(prefix + line[start:])
    return out


def process(path, check):
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    if all(len(l) <= LIMIT for l in lines):
        return 0
    new = []
    for l in lines:
        new.extend(wrap_line(l))
    new_text = "\n".join(new)
    try:
        same = yaml.safe_load(text) == yaml.safe_load(new_text)
    except yaml.YAMLError as e:
        same = False
    if not same:
        print(f"{path}: left as it was (wrapping would change what it says)", file=sys.stderr)
        return 0
    changed = sum(1 for l in lines if len(l) > LIMIT)
    if check:
        print(f"{path}: {changed} long lines")
    else:
        open(path, "w", encoding="utf-8").write(new_text)
    return changed


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv
    total = 0
    for root in args or ["Grammars"]:
        for dirpath, _, files in os.walk(root):
            for f in sorted(files):
                if f.endswith((".yaml", ".yml")):
                    total += process(os.path.join(dirpath, f), check)
    print(f"{total} long lines {'to wrap' if check else 'wrapped'}")


if __name__ == "__main__":
    main()
