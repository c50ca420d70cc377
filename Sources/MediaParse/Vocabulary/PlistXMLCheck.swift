import Foundation

/// Where an XML property list goes wrong, for error messages: the property-list reader says what is wrong
/// but always on "line 1". This scan follows the tags only (comments, the declaration, the doctype and
/// CDATA are skipped; text is not looked at) and reports the first tag that is unknown, unclosed or closes
/// the wrong tag, and a dictionary key without a value, with its line and column (1-based, in Unicode
/// scalars). nil when the tags are in order, or when `data` is not XML.
func firstXMLPlistProblem(in data: Data) -> (message: String, line: Int, column: Int)? {
    let bytes = [UInt8](data)
    let known: Set<String> = ["plist", "dict", "key", "string", "array", "integer", "real", "true", "false", "date", "data"]
    struct Open { var name: String; var line: Int; var column: Int; var keyWithoutValue: (line: Int, column: Int)? }
    var stack: [Open] = []
    var line = 1, column = 1
    var i = 0
    guard looksLikeXML(data) else { return nil }

    func advance(to end: Int) {
        while i < end && i < bytes.count {
            if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
    }
    func startsWith(_ s: String, at k: Int) -> Bool {
        var j = k
        for b in s.utf8 {
            guard j < bytes.count, bytes[j] == b else { return false }
            j += 1
        }
        return true
    }
    func find(_ pattern: String, from start: Int) -> Int? {
        var k = start
        while k < bytes.count {
            if startsWith(pattern, at: k) { return k }
            k += 1
        }
        return nil
    }

    while i < bytes.count {
        guard bytes[i] == UInt8(ascii: "<") else { advance(to: i + 1); continue }
        let (tagLine, tagColumn) = (line, column)
        if let (open, close) = [("<?", "?>"), ("<!--", "-->"), ("<![CDATA[", "]]>"), ("<!", ">")].first(where: { startsWith($0.0, at: i) }) {
            guard let end = find(close, from: i + open.utf8.count) else {
                return ("'\(open)' is not closed", tagLine, tagColumn)
            }
            advance(to: end + close.utf8.count)
            continue
        }
        guard let end = find(">", from: i) else { return ("a tag is not closed ('>' missing)", tagLine, tagColumn) }
        let inside = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
        advance(to: end + 1)
        let closing = inside.hasPrefix("/")
        let selfClosing = inside.hasSuffix("/")
        let name = String(inside.dropFirst(closing ? 1 : 0).prefix { !$0.isWhitespace && $0 != "/" })
        guard known.contains(name) else { return ("unknown tag <\(closing ? "/" : "")\(name)>", tagLine, tagColumn) }
        if closing {
            guard let top = stack.popLast() else { return ("</\(name)> closes nothing", tagLine, tagColumn) }
            guard top.name == name else {
                return ("</\(name)> does not close <\(top.name)> (opened at line \(top.line), column \(top.column))", tagLine, tagColumn)
            }
            if let key = top.keyWithoutValue {
                return ("a <key> without a value (the dictionary ends at line \(tagLine), column \(tagColumn))", key.line, key.column)
            }
            // After a </key>, the dictionary waits for the value.
            if name == "key", stack.last?.name == "dict" { stack[stack.count - 1].keyWithoutValue = (top.line, top.column) }
            continue
        }
        if var parent = stack.last, parent.name == "dict" {
            if name == "key", let key = parent.keyWithoutValue {
                return ("a <key> without a value (the next <key> is at line \(tagLine), column \(tagColumn))", key.line, key.column)
            }
            if name != "key" { parent.keyWithoutValue = nil; stack[stack.count - 1] = parent }
        }
        if selfClosing {
            continue
        }
        stack.append(Open(name: name, line: tagLine, column: tagColumn, keyWithoutValue: nil))
    }
    if let top = stack.last { return ("<\(top.name)> is not closed", top.line, top.column) }
    return nil
}

/// Whether `data` starts like XML: an optional byte order mark and white space, then '<'.
func looksLikeXML(_ data: Data) -> Bool {
    var i = data.startIndex
    if data.starts(with: [0xEF, 0xBB, 0xBF]) { i += 3 }
    while i < data.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(data[i]) { i += 1 }
    return i < data.endIndex && data[i] == UInt8(ascii: "<")
}

/// The byte offset of the first byte of `data` that is not part of valid UTF-8, or nil when all is valid.
func firstInvalidUTF8Offset(_ data: Data) -> Int? {
    var iterator = data.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
        switch parser.parseScalar(from: &iterator) {
        case let .valid(scalar): offset += scalar.count
        case .error: return offset
        case .emptyInput: return nil
        }
    }
}
