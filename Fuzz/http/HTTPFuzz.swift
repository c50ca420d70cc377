// libFuzzer target: the body of `POST /parse` and `POST /resolve`, as `mediaparse serve` reads it.
//
// The bytes are the request body. They go through the server's own reader (`ServeRequestBody`, compiled
// from Sources/mediaparse/ServeRequestBody.swift, see `sources`): UTF-8, JSON, known keys of the right types,
// the limits, the user vocabulary. A body the reader takes is parsed text by text as the server does; the
// locale it names is looked up the way the server looks one up.
//
// Besides crashes, the harness traps on a broken promise of the server (docs/CONTRACT.md, "Server"): a
// refusal is a 400 or a 413 with a message that encodes as the JSON error body; a body taken holds 1 to
// `maxTexts` texts, `alternatives` in 0…20, and each of its texts gives one JSON object that reports the
// text back. Set MEDIAPARSE_FUZZ_NO_CHECKS=1 to look for crashes only.
import Foundation
import MediaParse

let maxTexts = 16

let parser: MediaParser = {
    do {
        return try MediaParser(locale: "en-US", appNames: ["ControlAudio"], cacheCompiledGrammar: true)
    } catch {
        fatalError("cannot load the en-US grammar: \(error)")
    }
}()

let loader = GrammarLoader(catalog: .builtIn)
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
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let body: ServeRequestBody
    do {
        body = try ServeRequestBody(bytes: bytes, maxTexts: maxTexts)
    } catch let refusal as ServeRequestBody.Refusal {
        check(refusal.status == 400 || refusal.status == 413, "refused with status \(refusal.status)")
        check(!refusal.message.isEmpty, "refused without a message")
        let encoded = try? JSONSerialization.data(withJSONObject: ["error": refusal.message], options: [.sortedKeys])
        check(encoded != nil, "the refusal's message cannot be the JSON error body: \(refusal.message)")
        return 0
    } catch {
        check(false, "the reader threw something other than a refusal: \(error)")
        return 0
    }
    check((1...maxTexts).contains(body.texts.count), "\(body.texts.count) texts taken")
    check(body.batch || body.texts.count == 1, "a single text that is not a batch holds \(body.texts.count)")
    check((0...ServeRequestBody.maxAlternatives).contains(body.alternatives), "alternatives \(body.alternatives) taken")
    if let locale = body.locale {
        _ = try? loader.resolve(locale)  // the server's lookup of a locale name; any answer or error, no crash
    }
    for i in body.texts.indices {
        let result = body.parse(with: parser, text: i)
        let line = result.jsonLine()
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        check(object != nil, "text \(i) gave a line that is not a JSON object: \(line)")
        check(result.utterance == body.texts[i], "text \(i) not reported back unchanged")
        check(object?["error"] as? String != "could not encode the result", "text \(i): the result could not be encoded")
    }
    return 0
}
