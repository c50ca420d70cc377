import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with the interim `100 Continue`, so that a client (curl sends the header
/// for any body over 1 KB) sends its body at once instead of waiting a second for an answer that never
/// comes. A body the request's `Content-Length` already puts over the limit gets no `100`: the handler's
/// 413 answers it without the body being sent.
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private let maxBodyBytes: Int

    init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case var .head(request) = unwrapInboundIn(data),
           let expect = request.headerFields[.expect], expect.lowercased() == "100-continue" {
            request.headerFields[.expect] = nil
            let declared = request.headerFields[.contentLength].flatMap { Int($0) } ?? 0
            if declared <= maxBodyBytes {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
            context.fireChannelRead(wrapInboundOut(.head(request)))
            return
        }
        context.fireChannelRead(data)
    }
}

/// What the server does while it stops: after SIGTERM or SIGINT every response says `Connection: close`,
/// so that keep-alive clients go away after their current request instead of being served on and on.
final class Draining: @unchecked Sendable {
    private let lock = NSLock()
    private var draining = false
    private var sources: [DispatchSourceSignal] = []

    /// Starts watching the signals (beside the service lifecycle's own handling, which stops the server).
    func watch(_ signals: [Int32] = [SIGTERM, SIGINT]) {
        for number in signals {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.begin() }
            source.resume()
            sources.append(source)
        }
    }

    func begin() { lock.withLock { draining = true } }
    var isDraining: Bool { lock.withLock { draining } }
}

/// Requests in progress, with a limit: past it a request gets 503 and `Retry-After` at once, rather than
/// waiting in a queue that only grows. `GET /health` is always answered (a load balancer's probe must see a
/// busy server as alive).
final class InFlight: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place, or nil when all `limit` are taken.
    func enter() -> Bool {
        lock.withLock {
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() { lock.withLock { count -= 1 } }
}

/// The server's own rules around every request: the in-flight limit and, while draining, `Connection: close`.
struct ServerRules: RouterMiddleware {
    typealias Context = ServeContext
    let inFlight: InFlight
    let draining: Draining

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        var response: Response
        if request.uri.path == "/health" {
            response = try await next(request, context)
        } else if inFlight.enter() {
            defer { inFlight.leave() }
            response = try await next(request, context)
        } else {
            response = ParseService.error(.serviceUnavailable,
                                          "busy: \(inFlight.limit) requests are in progress (--max-in-flight); retry in a second")
            response.headers[.retryAfter] = "1"
        }
        if draining.isDraining { response.headers[.connection] = "close" }
        return response
    }
}
