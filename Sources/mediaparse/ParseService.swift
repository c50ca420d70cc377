import Foundation
import Hummingbird
import MediaParse
import MediaParseCatalog
import NIOCore

/// The parsers a server holds: the `--locale` ones loaded at start, or every locale with a grammar loaded
/// on its first request. Thread-safe; a locale is loaded once however many requests ask for it together.
final class ParserSet: @unchecked Sendable {
    private let options: ParserOptions
    private let lock = NSLock()
    private var loaded: [String: MediaParser] = [:]
    /// The locales served, BCP 47.
    let served: [String]
    /// The locale of requests that name none.
    let defaultLocale: String
    private let preloaded: Bool
    private let catalog: GrammarCatalog

    init(options: ParserOptions, preload: [String]) throws {
        self.options = options
        let catalog = try options.catalog()
        self.catalog = catalog
        if preload.isEmpty {
            served = catalog.regionalLocales.filter { catalog.hasSentenceFiles(locale: $0) }
            defaultLocale = served.contains("en-US") ? "en-US" : served.first ?? "en-US"
            preloaded = false
        } else {
            var names: [String] = []
            for name in preload {
                let parser = try options.parser(locale: name)
                loaded[parser.locale] = parser
                if !names.contains(parser.locale) { names.append(parser.locale) }
            }
            served = names
            defaultLocale = names[0]
            preloaded = true
        }
    }

    var servedDescription: String {
        preloaded ? served.joined(separator: ", ") : "\(served.count), each loaded on its first request"
    }

    /// The parser of `requested` ("de", "de_DE", "de-DE"), loading it on first use.
    ///
    /// - Throws: `UnsupportedLocaleError` when the locale is not served; `GrammarError` when its files are wrong.
    func parser(_ requested: String?) throws -> MediaParser {
        let name = requested ?? defaultLocale
        lock.lock()
        defer { lock.unlock() }
        if let p = loaded[name] { return p }
        let canonical = try resolve(name)
        if let p = loaded[canonical] {
            loaded[name] = p
            return p
        }
        guard !preloaded else { throw NotServed(requested: name) }
        let p = try options.parser(locale: canonical)
        loaded[canonical] = p
        loaded[name] = p
        return p
    }

    /// The served locale a name means: itself in BCP 47 form, or its language's default region.
    private func resolve(_ name: String) throws -> String {
        if let resolved = try? GrammarLoader(catalog: catalog).resolve(name).name,
           let hit = served.first(where: { $0.caseInsensitiveCompare(resolved) == .orderedSame }) {
            return hit
        }
        throw NotServed(requested: name)
    }

    /// A locale the server does not serve.
    struct NotServed: Error {
        var requested: String
    }
}

/// The handlers of `mediaparse serve`.
struct ParseService: Sendable {
    struct Limits: Sendable {
        var bodyBytes: Int
        var texts: Int
    }

    let parsers: ParserSet
    let limits: Limits
    /// The app's catalogue, for POST /resolve (`--catalog`).
    var resolver: Resolver?
    /// About a millisecond of parsing (a text takes 50–100 µs).
    static let textsBetweenYields = 8
    /// A request the server refuses: its status and what to tell the caller.
    struct Refusal: Error {
        var status: HTTPResponse.Status
        var message: String
        init(_ status: HTTPResponse.Status, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    /// POST /parse, and POST /resolve (`resolving`): the same request, each result with its resolution.
    func parse(_ request: Request, resolving: Bool = false) async throws -> Response {
        do {
            if resolving, resolver == nil {
                throw Refusal(.notFound, "this server has no catalogue: start it with --catalog FILE to use POST /resolve")
            }
            // Refused before reading when the body says it is too large.
            if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limits.bodyBytes {
                throw Refusal(.contentTooLarge, "the body is over \(limits.bodyBytes) bytes (--max-body-bytes)")
            }
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: limits.bodyBytes)
            } catch let error as HTTPError where error.status == .contentTooLarge {
                throw Refusal(.contentTooLarge, "the body is over \(limits.bodyBytes) bytes (--max-body-bytes)")
            } catch is NIOTooManyBytesError {
                throw Refusal(.contentTooLarge, "the body is over \(limits.bodyBytes) bytes (--max-body-bytes)")
            } catch {
                // The client stopped sending (--idle-timeout) or went away mid-body.
                throw Refusal(.requestTimeout, "the body did not arrive whole: \(error)")
            }
            let asked: ServeRequestBody
            do {
                asked = try ServeRequestBody(bytes: body.readableBytesView, maxTexts: limits.texts)
            } catch let refusal as ServeRequestBody.Refusal {
                throw Refusal(HTTPResponse.Status(code: refusal.status), refusal.message)
            }
            let parser: MediaParser
            do {
                parser = try parsers.parser(asked.locale)
            } catch is ParserSet.NotServed {
                throw Refusal(.badRequest, "unknown locale '\(asked.locale ?? "")'; served: \(parsers.served.joined(separator: ", "))")
            } catch {
                throw Refusal(.internalServerError, "the grammar of \(asked.locale ?? parsers.defaultLocale) cannot be loaded: \(error)")
            }
            // A batch gives way to other requests every few texts: the handlers share the cooperative
            // pool's threads (one per core), and a batch parsed in one go would hold one for its whole
            // length while single requests queue behind it.
            var lines: [String] = []
            lines.reserveCapacity(asked.texts.count)
            for i in asked.texts.indices {
                if i > 0, i % Self.textsBetweenYields == 0 { await Task.yield() }
                let result = asked.parse(with: parser, text: i, readings: resolving ? Resolver.readingsWanted : 0)
                var line = asked.trimmed(result)
                if resolving, let resolver {
                    do {
                        line.resolution = try resolver.resolve(result)
                    } catch {
                        line.error = "could not resolve: \(error)"
                    }
                }
                lines.append(line.jsonLine())
            }
            return Self.json(.ok, asked.batch ? "[" + lines.joined(separator: ",") + "]" : lines[0])
        } catch let refusal as Refusal {
            return Self.error(refusal.status, refusal.message)
        }
    }

    func locales() -> Response {
        let body: [String: Any] = ["locales": parsers.served, "default": parsers.defaultLocale]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Self.json(.ok, String(decoding: data, as: UTF8.self))
    }

    func health() -> Response {
        Self.json(.ok, #"{"status":"ok"}"#)
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var buffer = ByteBuffer(string: text)
        buffer.writeString("\n")
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: buffer))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: ["error": message], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(#"{"error":"bad request"}"#.utf8)
        return json(status, String(decoding: data, as: UTF8.self))
    }
}
