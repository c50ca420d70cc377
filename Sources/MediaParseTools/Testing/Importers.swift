import Foundation
import MediaParse

/// Reads labelled sets in the formats public data comes in and maps their labels to the contract.
///
/// Label map (labels are matched case-insensitively; the others are not compared, because their values need
/// word lists to map — `year`, `sort`, `music_item`, …):
///
/// | label | expectation |
/// | --- | --- |
/// | `artist` | `mediaSearch.artistName` |
/// | `album` | `mediaSearch.albumName` |
/// | `track`, `song`, `entity_name`, `name`, `podcast`, `audiobook` | `mediaSearch.mediaName` |
/// | `playlist` | `mediaDestination.playlistName` on add requests, `mediaSearch.mediaName` otherwise |
/// | `genre` | `mediaSearch.genreNames` |
/// | `service`, `app` | `appName` |
///
/// Intents: `PlayMusic` → `INPlayMediaIntent`, `AddToPlaylist` → `INAddMediaIntent`, the contract's own names
/// as they are, anything else → `null` (not a media request). Strings are compared loosely (case, accents,
/// punctuation and a leading article ignored).
public enum LabelledSetImporter {
    static let intentMap = ["playmusic": "INPlayMediaIntent", "addtoplaylist": "INAddMediaIntent"]

    static func intent(_ label: String?) -> String? {
        guard let label, !label.isEmpty else { return nil }
        if IntentName(rawValue: label) != nil, label != IntentName.notMedia.rawValue { return label }
        return intentMap[label.lowercased().replacingOccurrences(of: "_", with: "")]
    }

    /// The expectation for an utterance with `intent` and `slots` (label, text).
    static func expectation(intent rawIntent: String?, slots: [(String, String)]) -> JSONValue {
        guard let intent = intent(rawIntent) else { return .object(["intent": .null]) }
        var search: [String: JSONValue] = [:]
        var top: [String: JSONValue] = ["intent": .string(intent)]
        var genres: [JSONValue] = []
        for (label, value) in slots {
            let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
            switch label.lowercased() {
            case "artist": search["artistName"] = .string(text)
            case "album": search["albumName"] = .string(text)
            case "track", "song", "entity_name", "name", "podcast", "audiobook": search["mediaName"] = .string(text)
            case "playlist":
                if intent == IntentName.add.rawValue {
                    top["mediaDestination"] = .object(["playlistName": .string(text)])
                } else {
                    search["mediaName"] = .string(text)
                }
            case "genre": genres.append(.string(text))
            case "service", "app": top["appName"] = .string(text)
            default: continue
            }
        }
        if !genres.isEmpty { search["genreNames"] = .array(genres) }
        if !search.isEmpty { top["mediaSearch"] = .object(search) }
        return .object(top)
    }

    static func testCase(text: String, intent: String?, slots: [(String, String)], location: SourceLocation,
                         locale: String) -> TestCase {
        var c = TestCase(text: text, expect: expectation(intent: intent, slots: slots), location: location, locale: locale)
        c.loose = true
        return c
    }

    /// Snips NLU JSON: `{"data": [{"text": "play "}, {"text": "Khalid", "entity": "artist"}]}` per utterance,
    /// in any of the shapes Snips wrote: a list of them, an object of intent -> list (the 2017 benchmark), or
    /// a Snips NLU dataset (`{"intents": {name: {"utterances": [...]}}}`).
    public static func snips(path: String, locale: String) throws -> [TestCase] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GrammarError("cannot read the file", at: SourceLocation(file: path))
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw GrammarError("not JSON: \(error.localizedDescription)", at: SourceLocation(file: path))
        }
        var out: [TestCase] = []
        func utterance(_ item: Any, intent: String?, index: Int, where context: String) throws {
            guard let object = item as? [String: Any], let chunks = object["data"] as? [[String: Any]] else {
                throw GrammarError("\(context)[\(index)]: expected an object with \"data\": [chunks]", at: SourceLocation(file: path))
            }
            var text = ""
            var slots: [(String, String)] = []
            for chunk in chunks {
                guard let t = chunk["text"] as? String else {
                    throw GrammarError("\(context)[\(index)]: a chunk without \"text\"", at: SourceLocation(file: path))
                }
                text += t
                if let label = (chunk["entity"] as? String) ?? (chunk["slot_name"] as? String) { slots.append((label, t)) }
            }
            let itemIntent = (object["intent"] as? String) ?? intent
            out.append(testCase(text: text.trimmingCharacters(in: .whitespaces), intent: itemIntent, slots: slots,
                                location: SourceLocation(file: "\(path) \(context)[\(index)]"), locale: locale))
        }
        if let list = root as? [Any] {
            for (i, item) in list.enumerated() { try utterance(item, intent: nil, index: i, where: "") }
        } else if let object = root as? [String: Any] {
            if object["data"] != nil {
                try utterance(object, intent: nil, index: 0, where: "")
            } else if let intents = object["intents"] as? [String: Any] {
                for name in intents.keys.sorted() {
                    let utterances = (intents[name] as? [String: Any])?["utterances"] as? [Any] ?? []
                    for (i, u) in utterances.enumerated() { try utterance(u, intent: name, index: i, where: name) }
                }
            } else {
                for name in object.keys.sorted() {
                    guard let list = object[name] as? [Any] else { continue }
                    for (i, u) in list.enumerated() { try utterance(u, intent: name, index: i, where: name) }
                }
            }
        }
        return out
    }

    /// JSON Lines of labelled utterances: `{"text": "…", "intent": "…", "slots": [["artist", "Khalid"], …]}`
    /// per line (the shape of the public development sets converted to JSON Lines; a `locale` key, when present, overrides `locale`).
    public static func jsonLines(path: String, locale: String) throws -> [TestCase] {
        guard let data = FileManager.default.contents(atPath: path), let content = String(data: data, encoding: .utf8) else {
            throw GrammarError("cannot read the file as UTF-8 text", at: SourceLocation(file: path))
        }
        var out: [TestCase] = []
        for (n, line) in content.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let location = SourceLocation(file: path, line: n + 1)
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let text = object["text"] as? String else {
                throw GrammarError("expected a JSON object with \"text\"", at: location)
            }
            let slots = (object["slots"] as? [[Any]] ?? []).compactMap { pair -> (String, String)? in
                guard pair.count == 2, let l = pair[0] as? String, let v = pair[1] as? String else { return nil }
                return (l, v)
            }
            let rawIntent = object["intent"] as? String
            // The contract's "INUpdateMediaAffinityIntent:like" style keeps only the intent name here.
            let intent = rawIntent.map { String($0.split(separator: ":").first ?? "") }
            out.append(testCase(text: text, intent: intent, slots: slots, location: location,
                                locale: (object["locale"] as? String) ?? locale))
        }
        return out
    }

    /// CoNLL with BIO labels: sentences separated by blank lines, `# text = …` and `# intent = …` comments, one
    /// token a line with its label in the last column (`B-artist`, `I-artist`, `O`).
    public static func conll(path: String, locale: String) throws -> [TestCase] {
        guard let data = FileManager.default.contents(atPath: path), let content = String(data: data, encoding: .utf8) else {
            throw GrammarError("cannot read the file as UTF-8 text", at: SourceLocation(file: path))
        }
        var out: [TestCase] = []
        var text: String? = nil, intent: String? = nil
        var words: [String] = [], labels: [String] = []
        var startLine = 1
        func flush() {
            defer { text = nil; intent = nil; words = []; labels = [] }
            guard !words.isEmpty || text != nil else { return }
            var slots: [(String, String)] = []
            for (w, l) in zip(words, labels) {
                if l.hasPrefix("B-") || (l.hasPrefix("I-") && (slots.last?.0 != String(l.dropFirst(2)))) {
                    slots.append((String(l.dropFirst(2)), w))
                } else if l.hasPrefix("I-"), !slots.isEmpty {
                    slots[slots.count - 1].1 += " " + w
                }
            }
            out.append(testCase(text: text ?? words.joined(separator: " "), intent: intent, slots: slots,
                                location: SourceLocation(file: path, line: startLine), locale: locale))
        }
        for (n, raw) in content.components(separatedBy: "\n").enumerated() {
            let line = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if line.trimmingCharacters(in: .whitespaces).isEmpty { flush(); startLine = n + 2; continue }
            if line.hasPrefix("#") {
                let body = line.dropFirst().trimmingCharacters(in: .whitespaces)
                for key in ["text", "intent"] where body.hasPrefix(key) {
                    let rest = body.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
                    guard let sep = rest.first, sep == "=" || sep == ":" else { continue }
                    let value = rest.dropFirst().trimmingCharacters(in: .whitespaces)
                    if key == "text" { text = value } else { intent = value }
                }
                continue
            }
            let columns = line.split(whereSeparator: { $0 == "\t" || $0 == " " }).map(String.init)
            guard columns.count >= 2 else {
                throw GrammarError("expected a token and a label", at: SourceLocation(file: path, line: n + 1))
            }
            words.append(columns.count >= 3 ? columns[1] : columns[0])
            labels.append(columns[columns.count - 1])
        }
        flush()
        return out
    }
}
