// libFuzzer target: importing a catalogue file, then resolving requests against what was imported.
//
// The first byte chooses the format (even: JSON Lines, odd: CSV); the rest is the file. The bytes go through
// the reader every import uses (`CatalogFile.rows`), the rows into a fresh catalogue in memory (GRDB over
// SQLite, the same schema, keys and full-text index as a file on disk), and then requests made from the rows'
// own titles and artists are parsed and resolved, as `mediaparse resolve` does.
//
// Besides crashes, the harness traps on a broken promise (docs/CONTRACT.md, "Resolve"): every row the reader
// gives is valid (`problem == nil`) and every problem names "catalog:LINE" with a line in the file; the
// catalogue then holds exactly the distinct identifiers read, counted per type; a resolution names only
// items that were imported, with scores in [0, 1], best first. Set MEDIAPARSE_FUZZ_NO_CHECKS=1 to look for
// crashes only.
import Foundation
import MediaParse
import MediaParseCatalog

/// The locale of the catalogue and of the requests: `MEDIAPARSE_FUZZ_LOCALE`, else en-US.
let locale = ProcessInfo.processInfo.environment["MEDIAPARSE_FUZZ_LOCALE"] ?? "en-US"
let parser: MediaParser = {
    do {
        return try MediaParser(locale: locale, cacheCompiledGrammar: true)
    } catch {
        fatalError("cannot load the \(locale) grammar: \(error)")
    }
}()
let checks = ProcessInfo.processInfo.environment["MEDIAPARSE_FUZZ_NO_CHECKS"] == nil

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard checks, !condition else { return }
    fatalError("invariant broken: \(message())")
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = parser
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let format: CatalogFile.Format = data[0] % 2 == 0 ? .jsonLines : .csv
    let file = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let (rows, problems) = CatalogFile.rows(file, format: format, name: "catalog")
    let lines = file.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    for row in rows { check(row.problem == nil, "the reader gave a bad row: \(row.problem!)") }
    for problem in problems {
        let line = problem.location.hasPrefix("catalog:") ? Int(problem.location.dropFirst(8)) : nil
        check(line.map { (1...lines).contains($0) } ?? false, "problem at \(problem.location), the file has \(lines) lines")
        check(!problem.message.isEmpty, "a problem without a message at \(problem.location)")
    }
    let catalog: Catalog
    let summary: ImportSummary
    do {
        catalog = try Catalog.inMemory(locale: locale)
        summary = try catalog.importRows(rows)
    } catch {
        check(false, "importing \(rows.count) valid rows failed: \(error)")
        return 0
    }
    var types: [String: String] = [:]
    for row in rows { types[row.identifier] = row.type }  // the last row of an identifier wins
    check(summary.imported == rows.count, "\(summary.imported) of \(rows.count) rows imported")
    if let stats = try? catalog.stats() {
        check(stats.items == types.count, "\(stats.items) items stored for \(types.count) identifiers")
        var perType: [String: Int] = [:]
        for type in types.values { perType[type, default: 0] += 1 }
        check(stats.types == perType, "items per type \(stats.types), expected \(perType)")
    } else {
        check(false, "no statistics for a catalogue just imported")
    }
    let resolver = Resolver(catalog: catalog)
    for row in rows.prefix(3) {
        for text in ["play \(row.title)", "play \(row.title) by \(row.artist ?? "")", row.title] {
            let result = parser.parse(text)
            let resolution: Resolution?
            do {
                resolution = try resolver.resolve(result)
            } catch {
                check(false, "resolving \(text.debugDescription) failed: \(error)")
                continue
            }
            guard let resolution else { continue }
            let scores = resolution.items.map(\.score)
            check(scores == scores.sorted(by: >), "items not best first: \(scores)")
            for item in resolution.items + (resolution.nearMisses ?? []) {
                check(types[item.identifier] != nil, "resolved to \(item.identifier), which was not imported")
                check((0...1).contains(item.score), "score \(item.score) outside [0, 1]")
            }
        }
    }
    return 0
}
