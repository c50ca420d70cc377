import Foundation
import MediaParse

/// The body of `POST /parse` and `POST /resolve`, read and checked.
///
/// Apart from the HTTP server (no Hummingbird or NIO here) so that the HTTP body fuzz target
/// (`Fuzz/http/`) compiles this very file and feeds it hostile bytes, as the server does.
struct ServeRequestBody {
    /// The largest `alternatives` a request may ask for.
    static let maxAlternatives = 20
    static let allowedKeys: Set<String> = ["text", "texts", "locale", "alternatives", "explain", "userVocabulary"]

    /// What a request asks for, once checked.
    var texts: [String]
    /// Whether the body gave `texts` (the answer is then a JSON array).
    var batch: Bool
    var locale: String?
    var alternatives: Int
    var explain: Bool
    var userVocabulary: UserVocabulary?

    /// A body the server refuses: the HTTP status (400, or 413 past a limit) and what to tell the caller.
    struct Refusal: Error {
        var status: Int
        var message: String
        init(status: Int, _ message: String) {
            self.status = status
            self.message = message
        }
        init(_ message: String) { self.init(status: 400, message) }
    }

    /// The body's fields, typed: a wrong type is a refusal naming the key.
    struct Fields: Decodable {
        var text: String?
        var texts: [String]?
        var locale: String?
        var alternatives: Int?
        var explain: Bool?
        var userVocabulary: [String: [String]]?

        /// Whether `value` decodes as the type of `key`'s field.
        static func decodes(_ key: String, _ value: Any) -> Bool {
            guard let data = try? JSONSerialization.data(withJSONObject: [key: value]) else { return false }
            return (try? JSONDecoder().decode(Fields.self, from: data)) != nil
        }

        static let expected = [
            "text": "a string", "texts": "an array of strings", "locale": "a locale name such as \"de-DE\"",
            "alternatives": "a whole number from 0 to \(ServeRequestBody.maxAlternatives)", "explain": "true or false",
            "userVocabulary": "an object of INVocabularyStringType names to arrays of strings",
        ]
    }

    /// Checks the body: UTF-8, a JSON object, known keys of the right types, texts within the parser's limits.
    ///
    /// - Parameter maxTexts: the most texts one batch may hold (`--max-texts`).
    /// - Throws: `Refusal` saying what is wrong and what the server expects instead.
    init<Bytes: Collection<UInt8>>(bytes: Bytes, maxTexts: Int) throws {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw Refusal("the body is not UTF-8 text") }
        let data = Data(bytes)
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any] else {
                throw Refusal("the body must be a JSON object, such as {\"text\": \"play Khalid\"}")
            }
            object = parsed
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal("the body is not JSON: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error.localizedDescription)")
        }
        let unknown = Set(object.keys).subtracting(Self.allowedKeys).sorted()
        guard unknown.isEmpty else {
            throw Refusal("unknown key\(unknown.count > 1 ? "s" : "") \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); the keys are \(Self.allowedKeys.sorted().joined(separator: ", "))")
        }
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: data)
        } catch {
            // Which key is wrong: each one decoded alone.
            for key in object.keys.sorted() where !Fields.decodes(key, object[key]!) {
                throw Refusal("\"\(key)\" must be \(Fields.expected[key] ?? "something else")")
            }
            throw Refusal("the body cannot be read: \(error)")
        }
        texts = []
        batch = false
        locale = fields.locale
        alternatives = fields.alternatives ?? 0
        explain = fields.explain ?? false
        switch (fields.text, fields.texts) {
        case (nil, nil): throw Refusal("give \"text\" (one utterance) or \"texts\" (an array of them)")
        case (.some, .some): throw Refusal("give \"text\" or \"texts\", not both")
        case let (text?, nil): texts = [text]
        case let (nil, many?):
            guard !many.isEmpty else { throw Refusal("\"texts\" is empty") }
            guard many.count <= maxTexts else {
                throw Refusal(status: 413, "\"texts\" holds \(many.count) texts; the limit is \(maxTexts) (--max-texts)")
            }
            texts = many
            batch = true
        }
        for (i, text) in texts.enumerated() {
            let scalars = text.unicodeScalars.count
            if scalars > MediaParser.maxScalars {
                throw Refusal(status: 413, "\(batch ? "texts[\(i)]" : "text") has \(scalars) characters; the limit is \(MediaParser.maxScalars)")
            }
        }
        if let locale, locale.isEmpty { throw Refusal("\"locale\" must be \(Fields.expected["locale"]!)") }
        guard (0...Self.maxAlternatives).contains(alternatives) else {
            throw Refusal("\"alternatives\" must be \(Fields.expected["alternatives"]!)")
        }
        if let vocabulary = fields.userVocabulary {
            do {
                userVocabulary = try UserVocabulary(data: try JSONEncoder().encode(vocabulary), file: "userVocabulary")
            } catch {
                throw Refusal("\(error)")
            }
        }
    }

    /// Parses the body's text at `index` with `parser` and the body's options (alternatives, explain, the
    /// user's vocabulary), with at least `readings` readings (the resolver's; `trimmed` then keeps the
    /// alternatives asked for).
    func parse(with parser: MediaParser, text index: Int, readings: Int = 0) -> ParseResult {
        let text = texts[index]
        let asked = max(alternatives, readings)
        return userVocabulary.map {
            parser.parse(text, alternatives: asked, explain: explain, userVocabulary: $0)
        } ?? parser.parse(text, alternatives: asked, explain: explain)
    }

    /// `result` with only the alternatives the body asked for.
    func trimmed(_ result: ParseResult) -> ParseResult {
        guard let all = result.alternatives, all.count > alternatives else { return result }
        var out = result
        out.alternatives = alternatives == 0 ? nil : Array(all.prefix(alternatives))
        return out
    }
}
