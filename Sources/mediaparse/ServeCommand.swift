import ArgumentParser
import Foundation
import Hummingbird
import Logging
import MediaParse
import MediaParseCatalog
import NIOCore

/// `mediaparse serve`: the parser as an HTTP service, for tools written in any language.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the parser over HTTP: POST /parse, POST /resolve, GET /locales, GET /health, and a playground page at GET /.",
        discussion: """
            POST /parse takes {"text": "...", "locale": "de-DE", "alternatives": 2, "explain": false, "userVocabulary": {"mediaPlaylistTitle": ["..."]}} and answers the contract's result; with {"texts": ["...", ...]} instead of "text" it answers an array of results in the same order. Only "text" or "texts" is required. A request's userVocabulary is used for that request alone, in place of --user-vocabulary; the --global-vocabulary is shared by all.

            POST /resolve takes the same body and answers the same results, each with its "resolution" against the --catalog given at start (404 when the server has none).

            Bad requests get a 4xx status and {"error": "..."} saying what is wrong; the server goes on. One line per request goes to standard error (the Common Log Format with the time taken in milliseconds last). SIGTERM or SIGINT stops it after the requests in flight are answered.

            GET / is the playground: a page (nothing loaded from another host) to type utterances, pick a locale and see each result with its slots highlighted, the other readings and why the first won. A wrong method on a path gets 405 with an Allow header.

            Without --locale, every locale with a grammar is served, each loaded on its first request; with --locale, only those, loaded before the server listens.
            """
    )

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port; the one chosen is printed).")
    var port = 8080

    @Option(help: ArgumentHelp("A locale to serve, loaded at start (repeat for more; the first is the default of requests). \(LocaleHelp.available)",
                               valueName: "locale"))
    var locale: [String] = []

    @OptionGroup(title: "Parser options") var options: ParserOptions

    @OptionGroup(title: "Resolve") var catalogOptions: CatalogOptions

    @Option(help: ArgumentHelp("Largest request body accepted, in bytes.", valueName: "bytes"))
    var maxBodyBytes = 1 << 20

    @Option(help: ArgumentHelp("Most texts accepted in one batch request.", valueName: "n"))
    var maxTexts = 1_000

    @Option(help: ArgumentHelp("Close a connection that sends and receives nothing for this long (a client that stalls mid-request included).", valueName: "seconds"))
    var idleTimeout = 30

    @Option(help: ArgumentHelp("Most requests in progress at once; past it a request gets 503 with Retry-After (GET /health is always answered).", valueName: "n"))
    var maxInFlight = 256

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes a number from 0 to 65535") }
        guard maxBodyBytes >= 1_024 else { throw ValidationError("--max-body-bytes takes 1024 or more") }
        guard maxTexts >= 1 else { throw ValidationError("--max-texts takes 1 or more") }
        guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout takes 1 second or more") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight takes 1 or more") }
    }

    func run() async throws { try await serve() }

    /// Loads the parsers and serves until SIGTERM or SIGINT (named apart from `run`, which a sync caller
    /// would otherwise resolve to ArgumentParser's synchronous default).
    func serve() async throws {
        let parsers: ParserSet
        do {
            parsers = try ParserSet(options: options, preload: locale)
        } catch let error as UnsupportedLocaleError {
            exitWithMessage("mediaparse serve: \(error)", status: ExitStatus.usage)
        } catch {
            exitWithMessage("mediaparse serve: \(error)", status: ExitStatus.dataError)
        }
        var made = ParseService(parsers: parsers, limits: .init(bodyBytes: maxBodyBytes, texts: maxTexts))
        do {
            if let catalog = try catalogOptions.open(locale: parsers.defaultLocale, catalog: try options.catalog()) {
                made.resolver = Resolver(catalog: catalog)
            }
        } catch {
            exitWithMessage("mediaparse serve: \(error)", status: ExitStatus.dataError)
        }
        let service = made
        let router = Router(context: ServeContext.self)
        router.add(middleware: AccessLog())
        let draining = Draining()
        draining.watch()
        router.add(middleware: ServerRules(inFlight: InFlight(limit: maxInFlight), draining: draining))
        router.post("parse") { request, _ in try await service.parse(request) }
        router.post("resolve") { request, _ in try await service.parse(request, resolving: true) }
        router.get("locales") { _, _ in service.locales() }
        router.get("health") { _, _ in service.health() }
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                     body: .init(byteBuffer: ByteBuffer(string: Playground.page)))
        }

        var logger = Logger(label: "mediaparse-serve")
        logger.logLevel = .warning
        let host = self.host
        let app = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [ExpectContinueHandler(maxBodyBytes: maxBodyBytes)],
                                                idleTimeout: .seconds(Int64(idleTimeout)))),
            configuration: .init(address: .hostname(host, port: port), serverName: "mediaparse"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                FileHandle.standardError.write(Data("mediaparse serve: listening on http://\(host):\(bound) (locales: \(parsers.servedDescription))\n".utf8))
            },
            logger: logger
        )
        try await app.runService()
        FileHandle.standardError.write(Data("mediaparse serve: stopped\n".utf8))
    }
}

/// The server's paths and the method each takes (for 405 answers and the 404 message).
enum Endpoints {
    static let methods: [String: String] = ["/parse": "POST", "/resolve": "POST", "/locales": "GET, HEAD", "/health": "GET, HEAD", "/": "GET, HEAD"]
    static let list = "POST /parse, POST /resolve, GET /locales, GET /health, GET / (the playground)"
}

/// The request context: Hummingbird's own, plus the peer's address for the request log.
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// One line per request on standard error, in the Common Log Format (host ident user [time] "request"
/// status bytes) with the time taken in milliseconds added last. Errors no handler turned into a response
/// (no such route, a method the route does not take) become JSON errors here, so every answer is JSON.
struct AccessLog: RouterMiddleware {
    typealias Context = ServeContext

    private static let format: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "dd/MMM/yyyy:HH:mm:ss Z"
        return f
    }()
    private static let formatLock = NSLock()

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            if error.status == .notFound || error.status == .methodNotAllowed, let allowed = Endpoints.methods[request.uri.path] {
                // A path that exists, asked with another method: 405 and what it takes.
                response = ParseService.error(.methodNotAllowed, "\(request.uri.path) takes \(allowed), not \(request.method)")
                response.headers[.allow] = allowed
            } else {
                let message = error.status == .notFound ? "no such endpoint: \(request.method) \(request.uri.path) (there are \(Endpoints.list))"
                    : (error.body ?? "\(error.status.reasonPhrase)")
                response = ParseService.error(error.status, message)
            }
        } catch {
            response = ParseService.error(.internalServerError, "internal error: \(error)")
        }
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        let host: String = switch context.remoteAddress {
        case let .v4(address)?: address.host
        case let .v6(address)?: address.host
        default: "-"
        }
        let time = Self.formatLock.withLock { Self.format.string(from: Date()) }
        let bytes = response.body.contentLength.map(String.init) ?? "-"
        let target = request.uri.description.replacingOccurrences(of: "\"", with: "%22")
        let line = "\(host) - - [\(time)] \"\(request.method) \(target) HTTP/1.1\" \(response.status.code) \(bytes) \(String(format: "%.3f", ms))\n"
        FileHandle.standardError.write(Data(line.utf8))
        return response
    }
}
