import Foundation
@testable import MediaParse
import XCTest

/// `mediaparse serve` as its users meet it: the real server process on a free loopback port, spoken to in
/// HTTP/1.1 over a socket (no handler is called in-process).
final class ServeTests: XCTestCase {
    nonisolated(unsafe) static var shared: Server?

    /// One server for the tests that do not stop it: en-US and de-DE, a small body limit.
    func server() throws -> Server {
        if let s = Self.shared { return s }
        let s = try Server(arguments: ["--locale", "en-US", "--locale", "de-DE", "--max-body-bytes", "65536", "--max-texts", "100"])
        Self.shared = s
        return s
    }

    override class func tearDown() {
        shared?.stop()
        shared = nil
    }

    func testParseAnswersWhatTheCLIPrints() throws {
        let s = try server()
        let english = ["play Khalid", "skip ahead 30 seconds", "add this song to my road trip playlist", "what is the weather", ""]
        let cli = try CLI.run([], input: Data(english.map { $0 + "\n" }.joined().utf8))
        for (i, text) in english.enumerated() {
            let r = try s.post(["text": text])
            XCTAssertEqual(r.status, 200, text)
            XCTAssertEqual(r.text, cli.lines[i] + "\n", text)
            XCTAssertEqual(r.headers["content-type"], "application/json; charset=utf-8")
        }
        let german = ["spiel Rammstein", "mach lauter", "nächster Titel"]
        let cliDE = try CLI.run(["--locale", "de-DE", "--alternatives", "2"], input: Data(german.map { $0 + "\n" }.joined().utf8))
        for (i, text) in german.enumerated() {
            // "de" and "de_DE" name the same served locale.
            for locale in ["de-DE", "de", "de_DE"] {
                let r = try s.post(["text": text, "locale": locale, "alternatives": 2])
                XCTAssertEqual(r.text, cliDE.lines[i] + "\n", "\(text) in \(locale)")
            }
        }
    }

    func testBatchAnswersAnArrayInOrder() throws {
        let s = try server()
        let texts = (0..<40).map { ["play Khalid", "pause", "skip back \($0) seconds", "turn it up in the kitchen"][$0 % 4] + ($0 % 3 == 0 ? "" : " please") }
        let r = try s.post(["texts": texts])
        XCTAssertEqual(r.status, 200)
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.body) as? [[String: Any]])
        XCTAssertEqual(array.map { $0["utterance"] as? String }, texts)
        let cli = try CLI.run([], input: Data(texts.map { $0 + "\n" }.joined().utf8))
        XCTAssertEqual(r.text, "[" + cli.lines.joined(separator: ",") + "]\n")
    }

    func testUserVocabularyIsPerRequest() throws {
        let s = try server()
        let with = json(["text": "play road trip", "userVocabulary": ["mediaPlaylistTitle": ["Road Trip"]]])
        let without = json(["text": "play road trip"])
        // Interleaved from several threads: a request never sees another's names.
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            do {
                let r = try s.request("POST", "/parse", body: i % 2 == 0 ? with : without)
                let object = try JSONSerialization.jsonObject(with: r.body) as? [String: Any]
                let hit = object?["vocabulary"] != nil
                if hit != (i % 2 == 0) { failures.withLock { $0.append("request \(i): vocabulary hit \(hit): \(r.text)") } }
            } catch {
                failures.withLock { $0.append("request \(i): \(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let r = try s.request("POST", "/parse", body: with)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.body) as? [String: Any])
        XCTAssertEqual((object["mediaSearch"] as? [String: Any])?["mediaName"] as? String, "Road Trip")
    }

    func testBadRequestsGetA4xxThatSaysWhatIsWrongAndTheServerGoesOn() throws {
        let s = try server()
        let deep = Data((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8)
        let cases: [(body: Data, status: Int, says: String)] = [
            (Data("play Khalid".utf8), 400, "not JSON"),
            (Data([0x7B, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D]), 400, "not UTF-8"),
            (Data(), 400, "not JSON"),
            (Data("[\"play Khalid\"]".utf8), 400, "JSON object"),
            (deep, 400, "JSON"),
            (json(["txt": "play Khalid"]), 400, "unknown key \"txt\""),
            (json(["text": 5]), 400, "\"text\" must be a string"),
            (json(["texts": "play"]), 400, "\"texts\" must be an array of strings"),
            (json(["text": "x", "texts": ["y"]]), 400, "not both"),
            (json(["texts": []]), 400, "empty"),
            (json(["text": "x", "alternatives": 2.5]), 400, "\"alternatives\" must be a whole number"),
            (json(["text": "x", "alternatives": 99]), 400, "\"alternatives\" must be a whole number"),
            (json(["text": "x", "explain": "yes"]), 400, "\"explain\" must be true or false"),
            (json(["text": "x", "locale": "xx-XX"]), 400, "unknown locale 'xx-XX'; served: en-US, de-DE"),
            (json(["text": "x", "locale": "fr-FR"]), 400, "unknown locale 'fr-FR'"),
            (json(["text": "x", "userVocabulary": ["bogus": ["a"]]]), 400, "unknown vocabulary type 'bogus'"),
            (json(["text": "x", "userVocabulary": ["mediaPlaylistTitle": "a"]]), 400, "\"userVocabulary\" must be"),
            (json(["text": String(repeating: "a ", count: 1_500)]), 413, "the limit is 2000"),
            (json(["texts": Array(repeating: "pause", count: 101)]), 413, "the limit is 100"),
            (Data(repeating: 0x20, count: 70_000), 413, "over 65536 bytes"),
        ]
        for c in cases {
            let r = try s.request("POST", "/parse", body: c.body)
            XCTAssertEqual(r.status, c.status, "\(c.says): \(r.text)")
            let error = (try? JSONSerialization.jsonObject(with: r.body) as? [String: Any])?["error"] as? String
            XCTAssertNotNil(error, "\(c.says): the answer is a JSON error: \(r.text)")
            XCTAssertTrue(error?.contains(c.says) ?? false, "expected '\(c.says)' in: \(r.text)")
        }
        XCTAssertEqual(try s.request("GET", "/nothing").status, 404)
        // A path that exists, with the wrong method: 405 naming the method it takes.
        let wrongMethod = try s.request("GET", "/parse")
        XCTAssertEqual(wrongMethod.status, 405, wrongMethod.text)
        XCTAssertEqual(wrongMethod.headers["allow"], "POST")
        XCTAssertEqual(try s.request("POST", "/health").headers["allow"], "GET, HEAD")
        // The playground: one page, nothing from another host, talking to this server's endpoints.
        let page = try s.request("GET", "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(page.text.contains("fetch(\"parse\""), "the page posts to /parse")
        XCTAssertFalse(page.text.contains("http://") || page.text.contains("https://") || page.text.contains("src="),
                       "the page loads nothing from elsewhere")
        XCTAssertEqual(try s.request("GET", "/health").text, "{\"status\":\"ok\"}\n")
        XCTAssertEqual(try s.post(["text": "pause"]).status, 200, "the server goes on")
        XCTAssertTrue(s.isRunning)
    }

    func testLocalesAndTheRequestLog() throws {
        let s = try server()
        let r = try s.request("GET", "/locales")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.body) as? [String: Any])
        XCTAssertEqual(object["locales"] as? [String], ["en-US", "de-DE"])
        XCTAssertEqual(object["default"] as? String, "en-US")
        _ = try s.post(["text": "play Khalid"])
        // host ident user [time] "request" status bytes milliseconds
        let pattern = #"127\.0\.0\.1 - - \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d \+0000\] "POST /parse HTTP/1\.1" 200 \d+ \d+\.\d{3}"#
        let deadline = Date().addingTimeInterval(5)
        while s.stderr.range(of: pattern, options: .regularExpression) == nil, Date() < deadline { usleep(20_000) }
        XCTAssertNotNil(s.stderr.range(of: pattern, options: .regularExpression), s.stderr)
    }

    /// SIGTERM while a request is half sent: the request is answered whole, then the process exits 0.
    func testSIGTERMFinishesTheRequestInFlight() throws {
        let s = try Server(arguments: ["--locale", "en-US"])
        let texts = Array(repeating: "play the newest episode of Stuff You Should Know at double speed", count: 200)
        let body = json(["texts": texts])
        let connection = try Connection(port: s.port)
        // A keep-alive request (no `Connection: close` from the client): while stopping, the server closes it
        // after the answer, so a client that would go on sending cannot keep it serving.
        try connection.send(Data("POST /parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8))
        try connection.send(body.prefix(body.count / 2))
        usleep(200_000)
        kill(s.process.processIdentifier, SIGTERM)
        usleep(200_000)
        try connection.send(body.dropFirst(body.count / 2))
        let r = try connection.readResponse()
        let answered = Date()
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.headers["connection"], "close")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: r.body) as? [Any])?.count, 200)
        let deadline = Date().addingTimeInterval(10)
        while s.isRunning, Date() < deadline { usleep(20_000) }
        XCTAssertFalse(s.isRunning, "the server stopped")
        XCTAssertLessThan(Date().timeIntervalSince(answered), 2, "the server exits soon after the last answer")
        XCTAssertEqual(s.process.terminationStatus, 0)
        XCTAssertTrue(s.stderr.contains("mediaparse serve: stopped"), s.stderr)
        XCTAssertThrowsError(try Connection(port: s.port), "nothing listens any more")
    }

    /// `Expect: 100-continue` gets the interim answer at once (curl sends it for bodies over 1 KB and would
    /// otherwise wait a second), and the final answer follows the body.
    func testExpectContinueIsAnsweredAtOnce() throws {
        let s = try server()
        let body = json(["texts": Array(repeating: "play some jazz", count: 50)])
        let c = try Connection(port: s.port)
        try c.send(Data("POST /parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n".utf8))
        let interim = try c.readSome(timeout: 0.5)
        XCTAssertTrue(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), interim)
        try c.send(body)
        let r = try c.readResponse()
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: r.body) as? [Any])?.count, 50)
    }

    /// Past --max-in-flight requests in progress, a request gets 503 with Retry-After at once; /health is
    /// still answered; when the request in progress ends, the next one is served.
    func testRequestsPastTheInFlightLimitGet503() throws {
        let s = try Server(arguments: ["--locale", "en-US", "--max-in-flight", "1"])
        defer { s.stop() }
        let body = Data(#"{"text": "pause"}"#.utf8)
        let holding = try Connection(port: s.port)
        try holding.send(Data("POST /parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body.prefix(5))
        usleep(300_000)
        let refused = try s.request("POST", "/parse", body: body)
        XCTAssertEqual(refused.status, 503, refused.text)
        XCTAssertEqual(refused.headers["retry-after"], "1")
        XCTAssertTrue(refused.text.contains("--max-in-flight"), refused.text)
        XCTAssertEqual(try s.request("GET", "/health").status, 200)
        try holding.send(body.dropFirst(5))
        XCTAssertEqual(try holding.readResponse().status, 200)
        XCTAssertEqual(try s.request("POST", "/parse", body: body).status, 200)
    }

    /// A client that stalls mid-request is cut off after --idle-timeout; a body declared too large is refused
    /// before it is read.
    func testStalledClientsAreCutOffAndLargeBodiesRefusedAtOnce() throws {
        let s = try Server(arguments: ["--locale", "en-US", "--idle-timeout", "1", "--max-body-bytes", "2048"])
        defer { s.stop() }
        let stalled = try Connection(port: s.port)
        try stalled.send(Data("POST /parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\n\r\n{\"te".utf8))
        let start = Date()
        XCTAssertThrowsError(try stalled.readResponse(), "the connection is closed without an answer")
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
        let big = try Connection(port: s.port)
        try big.send(Data("POST /parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000000\r\nConnection: close\r\n\r\n".utf8))
        let r = try big.readResponse()
        XCTAssertEqual(r.status, 413, r.text)
        XCTAssertTrue(r.text.contains("over 2048 bytes"), r.text)
        XCTAssertEqual(try s.request("GET", "/health").status, 200)
    }

    func testBadOptionsExitWith64() throws {
        let r = try CLI.run(["serve", "--port", "70000"], input: Data())
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("--port"), r.stderr)
        let unknown = try CLI.run(["serve", "--port", "0", "--locale", "xx-XX"], input: Data())
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("unsupported locale 'xx-XX'"), unknown.stderr)
    }

    private func json(_ object: [String: Any]) -> Data {
        try! JSONSerialization.data(withJSONObject: object)
    }
}

/// A `mediaparse serve` process on a free port, its standard error collected as it comes.
final class Server: @unchecked Sendable {
    let process = Process()
    private(set) var port: UInt16 = 0
    /// Bytes, not `Data`: LeakSanitizer cannot follow `Data`'s storage through its enum's tag bits and would
    /// report it leaked.
    private let errors = Locked([UInt8]())
    var stderr: String { errors.withLock { String(decoding: $0, as: UTF8.self) } }
    var isRunning: Bool { process.isRunning }

    init(arguments: [String]) throws {
        process.executableURL = CLI.executable
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [errors] handle in
            let data = handle.availableData
            // At the end of the output the handler is let go, or the handle and this closure live on.
            if data.isEmpty { handle.readabilityHandler = nil; return }
            errors.withLock { $0.append(contentsOf: data) }
        }
        try process.run()
        // The parent's copy of the write end, closed: the handler then sees the end of the output when the
        // server exits, and lets go (else Foundation's monitor keeps the handle, and this object, alive).
        try? pipe.fileHandleForWriting.close()
        // Loading a grammar that is not cached yet takes seconds on a small machine.
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline, process.isRunning {
            if let match = stderr.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)/), let p = UInt16(match.1) {
                port = p
                return
            }
            usleep(20_000)
        }
        process.terminate()
        throw ServerError(message: "the server did not start: \(stderr)")
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    func request(_ method: String, _ path: String, body: Data = Data()) throws -> Response {
        let c = try Connection(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if method == "POST" { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        try c.send(Data((head + "\r\n").utf8) + body)
        return try c.readResponse()
    }

    func post(_ object: [String: Any]) throws -> Response {
        try request("POST", "/parse", body: try JSONSerialization.data(withJSONObject: object))
    }
}

struct ServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// One TCP connection to the loopback interface, with blocking POSIX calls.
final class Connection {
    private let fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError(message: "socket: \(errno)") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw ServerError(message: "connect to port \(port): errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard n > 0 else { throw ServerError(message: "send: errno \(errno)") }
                offset += n
            }
        }
    }

    /// What arrives within `timeout` seconds (at least one read), as text.
    func readSome(timeout: Double) throws -> String {
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pollfd, 1, Int32(timeout * 1000)) == 1 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
    }

    /// Reads to the end of the connection (requests say `Connection: close`) and splits the response.
    func readResponse() throws -> Server.Response {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw ServerError(message: "no HTTP response: \(String(decoding: data, as: UTF8.self))") }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw ServerError(message: "bad status line: \(head[0])") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Server.Response(status: status, headers: headers, body: Data(data[split.upperBound...]))
    }
}
