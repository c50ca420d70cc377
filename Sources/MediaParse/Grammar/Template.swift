import Foundation

/// A parsed template: the tree form of `"(play|put on) [the] {genre}"`.
indirect enum TemplateNode: Sendable {
    /// A word in matching form.
    case word(String)
    case sequence([TemplateNode])
    case alternatives([TemplateNode])
    case rule(String, SourceLocation)
    case slot(list: String, slot: String, SourceLocation)
    /// Zero (`*`) or one (`+`) or more repetitions.
    case repetition(TemplateNode, atLeastOne: Bool, SourceLocation)

    static let empty = TemplateNode.sequence([])

    /// Can this match the empty word sequence? (Rules are asked through `ruleMatchesEmpty`.)
    func matchesEmpty(_ ruleMatchesEmpty: (String) -> Bool) -> Bool {
        switch self {
        case .word: return false
        case let .sequence(items): return items.allSatisfy { $0.matchesEmpty(ruleMatchesEmpty) }
        case let .alternatives(items): return items.contains { $0.matchesEmpty(ruleMatchesEmpty) }
        case let .rule(name, _): return ruleMatchesEmpty(name)
        case .slot: return false
        case let .repetition(body, atLeastOne, _): return !atLeastOne || body.matchesEmpty(ruleMatchesEmpty)
        }
    }

    /// Words, alternatives and optional parts only: what a list entry may hold.
    var holdsWordsOnly: Bool {
        switch self {
        case .word: return true
        case let .sequence(items), let .alternatives(items): return items.allSatisfy(\.holdsWordsOnly)
        case .rule, .slot, .repetition: return false
        }
    }

    /// Every word sequence this template matches, for list entries (which may not hold slots or rules).
    func expansions(limit: Int = 4096) -> [[String]]? {
        switch self {
        case let .word(w): return [[w]]
        case let .sequence(items):
            var acc: [[String]] = [[]]
            for item in items {
                guard let next = item.expansions(limit: limit) else { return nil }
                acc = acc.flatMap { prefix in next.map { prefix + $0 } }
                if acc.count > limit { return nil }
            }
            return acc
        case let .alternatives(items):
            var acc: [[String]] = []
            for item in items {
                guard let e = item.expansions(limit: limit) else { return nil }
                acc += e
                if acc.count > limit { return nil }
            }
            return acc
        case .rule, .slot, .repetition: return nil
        }
    }
}

/// Reads template text. Words between the syntax characters go through `splitWords`, which cuts and folds
/// them the way utterances are (ICU word breaking and matching form).
struct TemplateParser {
    let text: [Character]
    let location: SourceLocation
    let splitWords: (String) -> [String]
    private var position = 0

    init(_ text: String, location: SourceLocation, splitWords: @escaping (String) -> [String]) {
        self.text = Array(text)
        self.location = location
        self.splitWords = splitWords
    }

    static func parse(_ text: String, at location: SourceLocation,
                      splitWords: @escaping (String) -> [String]) throws -> TemplateNode {
        var parser = TemplateParser(InWordGroups.expand(text), location: location, splitWords: splitWords)
        let node = try parser.parseAlternatives(closing: nil)
        if parser.position < parser.text.count {
            throw parser.error("unexpected '\(parser.text[parser.position])'")
        }
        return node
    }

    private func here() -> SourceLocation { location.advanced(by: position) }

    private func error(_ message: String) -> GrammarError {
        GrammarError("\(message) in template \"\(String(text))\"", at: here())
    }

    private mutating func parseAlternatives(closing: Character?) throws -> TemplateNode {
        var alternatives: [TemplateNode] = [try parseSequence()]
        while position < text.count, text[position] == "|" {
            position += 1
            alternatives.append(try parseSequence())
        }
        if let closing {
            guard position < text.count, text[position] == closing else {
                throw error("missing '\(closing)'")
            }
            position += 1
        }
        return alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
    }

    private mutating func parseSequence() throws -> TemplateNode {
        var items: [TemplateNode] = []
        var words = ""
        func flushWords() {
            if !words.isEmpty {
                items += splitWords(words).map(TemplateNode.word)
                words = ""
            }
        }
        while position < text.count {
            let c = text[position]
            let start = here()
            var item: TemplateNode
            switch c {
            case "|", ")", "]":
                flushWords()
                return items.count == 1 ? items[0] : .sequence(items)
            case "(":
                flushWords()
                position += 1
                item = try parseAlternatives(closing: ")")
            case "[":
                flushWords()
                position += 1
                item = .alternatives([try parseAlternatives(closing: "]"), .empty])
            case "<":
                flushWords()
                let name = try readName(until: ">")
                item = .rule(name, start)
            case "{":
                flushWords()
                let body = try readName(until: "}")
                let parts = body.split(separator: ":", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }) else {
                    throw GrammarError("a slot is {list} or {list:slot}, not {\(body)}", at: start)
                }
                item = .slot(list: parts[0], slot: parts.count == 2 ? parts[1] : parts[0], start)
            case "*", "+":
                throw error("'\(c)' must follow a group, an optional part, a rule or a slot")
            case "}", ">":
                throw error("unexpected '\(c)'")
            default:
                words.append(c)
                position += 1
                continue
            }
            if position < text.count, text[position] == "*" || text[position] == "+" {
                item = .repetition(item, atLeastOne: text[position] == "+", start)
                position += 1
            }
            items.append(item)
        }
        flushWords()
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func readName(until closing: Character) throws -> String {
        let open = text[position]
        position += 1
        var name = ""
        while position < text.count, text[position] != closing {
            if "()[]{}<>|".contains(text[position]) { throw error("'\(text[position])' inside \(open)…\(closing)") }
            name.append(text[position])
            position += 1
        }
        guard position < text.count else { throw error("missing '\(closing)'") }
        position += 1
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw error("empty \(open)\(closing)") }
        return trimmed
    }
}

/// Optional endings and alternatives inside a word (hassil's `pausiere[n]`): a `[…]` or `(…|…)` of letters
/// glued to letters, with no space between, stands for the whole word in each form:
/// `pausiere[n]` is `(pausiere|pausieren)`, `nächste(n|s|r|)` is `(nächsten|nächstes|nächster|nächste)`,
/// `[ge]spielt` is `(spielt|gespielt)`. Inflections are then written once instead of spelled out.
///
/// Only in scripts written with spaces: in Chinese and Japanese every character is a word already, so a
/// group next to a character is simply the next word (`暂停[一下]`) and is left as it is.
enum InWordGroups {
    /// `text` with every word that holds a glued group written as a group of its forms; unchanged when
    /// there is none (the common case, checked first).
    static func expand(_ text: String) -> String {
        let chars = Array(text)
        guard chars.indices.contains(where: { i in
            (chars[i] == "[" || chars[i] == "(") && i > 0 && isLetter(chars[i - 1])
                || (chars[i] == "]" || chars[i] == ")") && i + 1 < chars.count && isLetter(chars[i + 1])
        }) else { return text }
        var out = ""
        var i = 0
        while i < chars.count {
            // A candidate word: letters and simple groups, with no space.
            var j = i
            var parts: [[String]] = []   // each part: the forms it may take
            var letters = ""
            var hasGroup = false, hasLetters = false
            while j < chars.count {
                let c = chars[j]
                if isLetter(c) {
                    letters.append(c)
                    hasLetters = true
                    j += 1
                } else if c == "[" || c == "(", let (forms, end) = simpleGroup(chars, from: j) {
                    if !letters.isEmpty { parts.append([letters]); letters = "" }
                    parts.append(c == "[" ? [""] + forms : forms)
                    hasGroup = true
                    j = end
                } else {
                    break
                }
            }
            if !letters.isEmpty { parts.append([letters]) }
            if j > i, hasGroup, hasLetters, gluedEverywhere(chars, i, j) {
                var forms: [String] = [""]
                for part in parts { forms = forms.flatMap { f in part.map { f + $0 } } }
                var seen = Set<String>()
                out += "(" + forms.filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: "|") + ")"
                i = j
            } else if j > i {
                out += String(chars[i..<j])
                i = j
            } else {
                out.append(chars[i])
                i += 1
            }
        }
        return out
    }

    /// Every group of the run `[start, end)` touches a letter on one side at least (so `[the] word` and a
    /// lone `(a|b)` stay the template syntax they always were).
    private static func gluedEverywhere(_ chars: [Character], _ start: Int, _ end: Int) -> Bool {
        var k = start
        while k < end {
            let c = chars[k]
            if c == "[" || c == "(" {
                guard let (_, close) = simpleGroup(chars, from: k) else { return false }
                let before = k > start && isLetter(chars[k - 1])
                let after = close < end && isLetter(chars[close])
                if !before && !after { return false }
                k = close
            } else {
                k += 1
            }
        }
        return true
    }

    /// A group of letters only (alternatives split by `|`): its forms and the index after it.
    private static func simpleGroup(_ chars: [Character], from start: Int) -> ([String], Int)? {
        let close: Character = chars[start] == "[" ? "]" : ")"
        var k = start + 1
        var forms: [String] = [""]
        while k < chars.count, chars[k] != close {
            if chars[k] == "|" {
                forms.append("")
            } else if isLetter(chars[k]) {
                forms[forms.count - 1].append(chars[k])
            } else {
                return nil
            }
            k += 1
        }
        guard k < chars.count else { return nil }
        if chars[start] == "[" && (forms.count != 1 || forms[0].isEmpty) { return nil }
        return (forms, k + 1)
    }

    /// A letter of a script written with spaces (or an apostrophe inside a word); not Han or kana.
    private static func isLetter(_ c: Character) -> Bool {
        guard let scalar = c.unicodeScalars.first else { return false }
        if c == "'" || c == "’" { return true }
        guard c.isLetter || c.isNumber else { return false }
        switch scalar.value {
        case 0x2E80...0x9FFF, 0xF900...0xFAFF, 0x3040...0x30FF, 0xFF66...0xFF9F, 0x20000...0x2FFFF: return false
        default: return true
        }
    }
}
