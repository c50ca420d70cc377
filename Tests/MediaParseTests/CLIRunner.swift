import Foundation
import XCTest

/// Runs the `mediaparse` executable built beside the tests, as scripts do.
enum CLI {
    /// The executable built beside the test bundle.
    static let executable: URL = {
        let bundle = Bundle(for: CLITests.self).bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent(),
                          bundle.deletingLastPathComponent().deletingLastPathComponent()]
            .map { $0.appendingPathComponent("mediaparse") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }()

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        /// The lines of `stdout`, cut once: a test that reads them one by one over a corpus would otherwise cut
        /// the whole output again for every line (that made the determinism test take minutes).
        let lines: [String]

        init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
            lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        func json(_ i: Int) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[i].utf8)) as? [String: Any])
        }
    }

    /// - Parameter directory: the working directory (default: the test process's own).
    static func run(_ arguments: [String], input: Data, directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        DispatchQueue.global().async {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                   stderr: String(decoding: err, as: UTF8.self))
    }

}
