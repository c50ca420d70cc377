import Foundation
import Yams

struct ListEntry: Sendable {
    var spoken: TemplateNode
    var value: SlotValue?
    var location: SourceLocation
}

struct ListDefinition: Sendable {
    enum Kind: Sendable {
        /// `literal`: the entries are phrasing of the grammar ("I don't like", "turn shuffle off"), and
        /// their words rank as literal words, not as list hits.
        case values([ListEntry], literal: Bool)
        /// `exclude`: words it may never hold; `excludeAlone`: words it may hold, but not with nothing else
        /// ("Frank Ocean" is an artist, "l'océan" alone is not).
        case wildcard(maxWords: Int, minWords: Int, exclude: [String], excludeAlone: [String])
    }
    var name: String
    var kind: Kind
    var location: SourceLocation
    var level: Int
    /// `extends: true`: the entries add to the list of the same name in a more general folder (the shared
    /// `mul/` lists, the language's for a region) instead of replacing it.
    var extends = false
}

struct RuleDefinition: Sendable {
    var name: String
    var template: TemplateNode
    var location: SourceLocation
    var level: Int
}

/// Where a modifier may stand: before any request or after it.
enum ModifierSide: String, Sendable, CaseIterable {
    case before, after
}

/// A piece that may stand around any sentence (`modifiers:` in a grammar file): a wake word, politeness,
/// a carrier phrase, where to play, the app. Matched as one shared layer, never copied into sentences.
struct ModifierDefinition: Sendable {
    var side: ModifierSide
    var text: String
    var template: TemplateNode
    var location: SourceLocation
}

struct SentenceDefinition: Sendable {
    var intent: IntentName
    var text: String
    var template: TemplateNode
    var set: [(Field, SlotValue)]
    var location: SourceLocation
}

/// A locale's grammar as written: settings, rules, lists and sentences, not yet compiled.
struct GrammarDefinition: Sendable {
    var settings: LanguageProfile
    var rules: [String: RuleDefinition] = [:]
    var lists: [String: ListDefinition] = [:]
    var sentences: [SentenceDefinition] = []
    var modifiers: [ModifierDefinition] = []
}

/// Finds the folders of a locale and reads their files into a `GrammarDefinition`.
package struct GrammarLoader {
    let catalog: GrammarCatalog

    package init(catalog: GrammarCatalog) { self.catalog = catalog }

    /// The folder of lists shared by every language (ISO 639's "mul", multiple languages): names said alike
    /// everywhere, such as the world's audio services. It starts every locale's chain.
    package static let sharedFolder = "mul"

    /// Picks the folder chain for `requested` ("en", "en_GB", "en-NZ").
    package func resolve(_ requested: String) throws -> (name: String, chain: [String]) {
        let name = canonicalLocaleName(requested)
        let parts = name.split(separator: "-").map(String.init)
        guard let language = parts.first, !language.isEmpty, language != Self.sharedFolder else {
            throw UnsupportedLocaleError(requested: requested, available: catalog.locales)
        }
        var chosen: String?
        var outputName = name
        if catalog.folders[name] != nil {
            chosen = name
        }
        if parts.count == 1, let region = try settingsFile(language)?.defaultRegion {
            outputName = "\(language)-\(region)"
            chosen = catalog.folders[outputName] != nil ? outputName : language
        }
        if chosen == nil, catalog.folders[language] != nil {
            chosen = language
        }
        guard let start = chosen else {
            throw UnsupportedLocaleError(requested: requested, available: catalog.locales)
        }
        var chain = [start]
        var current = start
        while let fallback = try settingsFile(current)?.fallback {
            let canonical = canonicalLocaleName(fallback)
            guard catalog.folders[canonical] != nil else {
                let file = catalog.folders[current]?["locale.yaml"]?.displayPath ?? current
                throw GrammarError("fallback locale '\(fallback)' has no grammar folder", at: SourceLocation(file: file))
            }
            guard !chain.contains(canonical) else {
                let file = catalog.folders[current]?["locale.yaml"]?.displayPath ?? current
                throw GrammarError("fallback chain loops: \((chain + [canonical]).joined(separator: " -> "))",
                                   at: SourceLocation(file: file))
            }
            chain.insert(canonical, at: 0)
            current = canonical
        }
        if catalog.folders[Self.sharedFolder] != nil, chain.first != Self.sharedFolder { chain.insert(Self.sharedFolder, at: 0) }
        return (outputName, chain)
    }

    private struct SettingsFile {
        var fallback: String?
        var defaultRegion: String?
    }

    private func settingsFile(_ folder: String) throws -> SettingsFile? {
        guard let file = catalog.folders[folder]?["locale.yaml"] else { return nil }
        let yaml = try YAMLFile.settings(path: file.displayPath, text: file.text)
        guard let root = yaml.root else { return SettingsFile() }
        var out = SettingsFile()
        for e in try yaml.mapping(root, "locale.yaml") {
            if e.key == "fallback" { out.fallback = try yaml.string(e.value, "fallback") }
            if e.key == "default_region" { out.defaultRegion = try yaml.string(e.value, "default_region") }
        }
        return out
    }

    /// Reads the language profile of the chain (every folder's `locale.yaml`, later ones overriding keys).
    func settings(name: String, chain: [String]) throws -> LanguageProfile {
        try LanguageProfile.read(name: name, chain: chain, catalog: catalog)
    }

    /// Reads every grammar file of the chain. `splitWords` cuts template words like utterances.
    func load(settings: LanguageProfile, splitWords: @escaping (String) -> [String]) throws -> GrammarDefinition {
        var grammar = GrammarDefinition(settings: settings)
        // Later folders replace files of the same path; the level of a definition is its folder's place.
        var files: [String: (level: Int, file: GrammarCatalog.File)] = [:]
        for (level, folder) in settings.chain.enumerated() {
            for (path, file) in catalog.folders[folder] ?? [:] where path != "locale.yaml" {
                files[path] = (level, file)
            }
        }
        for path in files.keys.sorted() {
            let (level, file) = files[path]!
            try read(file, level: level, into: &grammar, splitWords: splitWords)
        }
        if let waiting = grammar.lists.values.filter(\.extends).min(by: { $0.location.description < $1.location.description }) {
            throw Self.noBase(waiting)
        }
        return grammar
    }

    private func read(_ file: GrammarCatalog.File, level: Int, into grammar: inout GrammarDefinition,
                      splitWords: @escaping (String) -> [String]) throws {
        let yaml = try YAMLFile(path: file.displayPath, text: file.text)
        guard let root = yaml.root else { return }
        let top = try yaml.mapping(root, "a grammar file")
        try yaml.checkKeys(top, allowed: ["intents", "expansion_rules", "lists", "modifiers", "language"], in: "a grammar file")

        func template(_ node: Node, _ what: String) throws -> (String, TemplateNode) {
            let text = try yaml.string(node, what)
            return (text, try TemplateParser.parse(text, at: yaml.textLocation(node), splitWords: splitWords))
        }

        for section in top {
            switch section.key {
            case "expansion_rules":
                for rule in try yaml.mapping(section.value, "expansion_rules") {
                    let location = yaml.location(rule.keyNode)
                    if let existing = grammar.rules[rule.key], existing.level == level {
                        throw GrammarError("rule <\(rule.key)> is already defined at \(existing.location)", at: location)
                    }
                    // One template, or a YAML list of alternatives (one per line).
                    let node: TemplateNode
                    if case .sequence = rule.value {
                        let items = try yaml.sequence(rule.value, "rule <\(rule.key)>")
                        guard !items.isEmpty else {
                            throw GrammarError("rule <\(rule.key)> is an empty list; give it at least one alternative", at: location)
                        }
                        let alternatives = try items.map { try template($0, "an alternative of rule <\(rule.key)>").1 }
                        node = alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
                    } else {
                        node = try template(rule.value, "rule <\(rule.key)>").1
                    }
                    grammar.rules[rule.key] = RuleDefinition(name: rule.key, template: node, location: location, level: level)
                }
            case "lists":
                for list in try yaml.mapping(section.value, "lists") {
                    let location = yaml.location(list.keyNode)
                    if let existing = grammar.lists[list.key], existing.level == level {
                        throw GrammarError("list {\(list.key)} is already defined at \(existing.location)", at: location)
                    }
                    if RecognizerKind(rawValue: list.key) != nil {
                        throw GrammarError("{\(list.key)} is a built-in recogniser; give the list another name", at: location)
                    }
                    let definition = try readList(list.key, list.value, location: location, level: level, yaml: yaml, template: template)
                    // Files are read in path order, so a more specific folder's list may come first: it stays,
                    // joined to this one if it extends it.
                    if let existing = grammar.lists[list.key], existing.level > level {
                        if existing.extends { grammar.lists[list.key] = try Self.extend(definition, with: existing) }
                    } else if definition.extends, let base = grammar.lists[list.key] {
                        grammar.lists[list.key] = try Self.extend(base, with: definition)
                    } else {
                        grammar.lists[list.key] = definition
                    }
                }
            case "modifiers":
                let sides = try yaml.mapping(section.value, "modifiers")
                try yaml.checkKeys(sides, allowed: Set(ModifierSide.allCases.map(\.rawValue)), in: "modifiers")
                for side in sides {
                    let which = ModifierSide(rawValue: side.key)!
                    for item in try yaml.sequence(side.value, "modifiers.\(side.key)") {
                        // Whether it can say nothing is checked by the compiler, which knows every rule.
                        let (text, node) = try template(item, "a modifier")
                        grammar.modifiers.append(ModifierDefinition(side: which, text: text, template: node,
                                                                    location: yaml.textLocation(item)))
                    }
                }
            case "intents":
                for intent in try yaml.mapping(section.value, "intents") {
                    guard let name = IntentName(rawValue: intent.key) else {
                        throw GrammarError("unknown intent '\(intent.key)'; expected one of: \(IntentName.allCases.map(\.rawValue).joined(separator: ", "))",
                                           at: yaml.location(intent.keyNode))
                    }
                    let body = try yaml.mapping(intent.value, "intent \(intent.key)")
                    try yaml.checkKeys(body, allowed: ["data"], in: "intent \(intent.key)")
                    guard let data = body.first(where: { $0.key == "data" }) else { continue }
                    for block in try yaml.sequence(data.value, "data") {
                        let fields = try yaml.mapping(block, "a data block")
                        try yaml.checkKeys(fields, allowed: ["sentences", "set"], in: "a data block")
                        var set: [(Field, SlotValue)] = []
                        if let s = fields.first(where: { $0.key == "set" }) {
                            for pair in try yaml.mapping(s.value, "set") {
                                let field = try fieldNamed(pair.key, at: yaml.location(pair.keyNode))
                                let value = try yaml.value(pair.value, "the value of \(pair.key)")
                                try Self.check(value, for: field, at: yaml.location(pair.value))
                                set.append((field, value))
                            }
                        }
                        guard let sentences = fields.first(where: { $0.key == "sentences" }) else {
                            throw GrammarError("a data block needs sentences", at: yaml.location(block))
                        }
                        for s in try yaml.sequence(sentences.value, "sentences") {
                            let (text, node) = try template(s, "a sentence")
                            grammar.sentences.append(SentenceDefinition(intent: name, text: text, template: node, set: set,
                                                                        location: yaml.textLocation(s)))
                        }
                    }
                }
            default: break
            }
        }
    }

    private func readList(_ name: String, _ node: Node, location: SourceLocation, level: Int, yaml: YAMLFile,
                          template: (Node, String) throws -> (String, TemplateNode)) throws -> ListDefinition {
        let body = try yaml.mapping(node, "list {\(name)}")
        try yaml.checkKeys(body, allowed: ["values", "wildcard", "max_words", "min_words", "exclude", "exclude_alone", "literal", "extends"],
                           in: "list {\(name)}")
        let extends = try body.first { $0.key == "extends" }.map { try yaml.bool($0.value, "`extends`") } ?? false
        let literal = try body.first { $0.key == "literal" }.map { node -> Bool in
            guard let b = node.value.bool else { throw GrammarError("`literal` is true or false", at: yaml.location(node.value)) }
            return b
        } ?? false
        if let w = body.first(where: { $0.key == "wildcard" }), w.value.bool == true {
            if extends { throw GrammarError("a free-text list cannot extend another; `extends` is for lists of values", at: location) }
            let maxWords = try body.first { $0.key == "max_words" }.map { try yaml.int($0.value, "max_words") } ?? 12
            guard maxWords >= 1 else { throw GrammarError("max_words must be at least 1", at: yaml.location(w.value)) }
            let minNode = body.first { $0.key == "min_words" }
            let minWords = try minNode.map { try yaml.int($0.value, "min_words") } ?? 1
            guard (1...maxWords).contains(minWords) else {
                throw GrammarError("min_words is at least 1 and at most max_words (\(maxWords))", at: yaml.location((minNode ?? w).value))
            }
            let exclude = try body.first { $0.key == "exclude" }.map { try yaml.strings($0.value, "exclude") } ?? []
            let alone = try body.first { $0.key == "exclude_alone" }.map { try yaml.strings($0.value, "exclude_alone") } ?? []
            return ListDefinition(name: name, kind: .wildcard(maxWords: maxWords, minWords: minWords, exclude: exclude.map(matchingForm),
                                                              excludeAlone: alone.map(matchingForm)),
                                  location: location, level: level)
        }
        guard let values = body.first(where: { $0.key == "values" }) else {
            throw GrammarError("list {\(name)} needs `values:` or `wildcard: true`", at: location)
        }
        var entries: [ListEntry] = []
        // The same words may not give two different values: which one a parse got would depend on ranking
        // ties, not on the grammar.
        var given: [[String]: (value: SlotValue, location: SourceLocation)] = [:]
        func checkUnique(_ forms: [[String]], _ value: SlotValue?, at location: SourceLocation) throws {
            guard let value else { return }
            for form in forms {
                if let earlier = given[form], earlier.value != value {
                    throw GrammarError("'\(form.joined(separator: " "))' already gives \(earlier.value) in {\(name)} (at \(earlier.location)); "
                                       + "the same words cannot give two values (\(value) here)", at: location)
                }
                if given[form] == nil { given[form] = (value, location) }
            }
        }
        for item in try yaml.sequence(values.value, "values of {\(name)}") {
            if case .scalar = item {
                let (text, spoken) = try template(item, "a value of {\(name)}")
                guard let forms = spoken.expansions() else {
                    throw GrammarError(!spoken.holdsWordsOnly
                        ? "a list value may hold words, ( | ) and [ ] only, not rules, slots or repetition"
                        : "a list value may say at most 4,096 forms; this one says more: split it into several values",
                                       at: yaml.textLocation(item))
                }
                // One spoken form: it is also the value. Several: the value is what was said.
                let value: SlotValue? = forms.count == 1 ? .text(Self.plainText(text)) : nil
                try checkUnique(forms, value, at: yaml.textLocation(item))
                entries.append(ListEntry(spoken: spoken, value: value, location: yaml.textLocation(item)))
                continue
            }
            let fields = try yaml.mapping(item, "a value of {\(name)}")
            try yaml.checkKeys(fields, allowed: ["in", "out"], in: "a value of {\(name)}")
            guard let inNode = fields.first(where: { $0.key == "in" }) else {
                throw GrammarError("a list value needs `in:`", at: yaml.location(item))
            }
            let (inText, spoken) = try template(inNode.value, "`in` of a value of {\(name)}")
            guard let forms = spoken.expansions() else {
                throw GrammarError(!spoken.holdsWordsOnly
                    ? "a list value's `in` may hold words, ( | ) and [ ] only, not rules, slots or repetition"
                    : "a list value's `in` may say at most 4,096 forms; this one says more: split it into several values",
                                   at: yaml.textLocation(inNode.value))
            }
            var value: SlotValue? = nil
            if let out = fields.first(where: { $0.key == "out" }) {
                value = try yaml.value(out.value, "`out`")
            } else if forms.count == 1 {
                value = .text(Self.plainText(inText))
            }
            try checkUnique(forms, value, at: yaml.textLocation(inNode.value))
            entries.append(ListEntry(spoken: spoken, value: value, location: yaml.textLocation(inNode.value)))
        }
        return ListDefinition(name: name, kind: .values(entries, literal: literal), location: location, level: level, extends: extends)
    }

    /// A list with `extends: true` joined to the list it extends: the base's entries, but for those sharing a
    /// spoken form with one of the extension's (the more specific folder says what those words give), then
    /// the extension's.
    private static func extend(_ base: ListDefinition, with own: ListDefinition) throws -> ListDefinition {
        guard base.level < own.level, case let .values(baseEntries, _) = base.kind, case let .values(ownEntries, literal) = own.kind else {
            throw noBase(own)
        }
        let said = Set(ownEntries.flatMap { $0.spoken.expansions() ?? [] })
        let kept = baseEntries.filter { entry in !(entry.spoken.expansions() ?? []).contains(where: said.contains) }
        var joined = own
        joined.kind = .values(kept + ownEntries, literal: literal)
        // Still waiting for a more general list when the base extends one too.
        joined.extends = base.extends
        return joined
    }

    private static func noBase(_ list: ListDefinition) -> GrammarError {
        GrammarError("list {\(list.name)} extends a list of a more general folder (the shared \(sharedFolder)/, or the "
                     + "language's for a region), but there is no list of values of that name there; remove `extends`",
                     at: list.location)
    }

    /// A one-form template's text as a value: "(Hip Hop)" is "Hip Hop" (brackets are syntax, not words).
    static func plainText(_ text: String) -> String {
        text.filter { !"()[]".contains($0) }.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private func fieldNamed(_ name: String, at location: SourceLocation) throws -> Field {
        guard let field = Field(rawValue: name) else {
            throw GrammarError("unknown field '\(name)'; expected one of: \(Field.allCases.map(\.rawValue).joined(separator: ", "))",
                               at: location)
        }
        return field
    }

    /// Is `value` one `field` can take (the right kind, and one of the contract's names where it has a list)?
    static func check(_ value: SlotValue, for field: Field, at location: SourceLocation) throws {
        switch (field.kind, value) {
        case (.text, .text(let s)):
            if let allowed = field.allowedValues, !allowed.contains(s) {
                throw GrammarError("'\(s)' is not a value of \(field.rawValue); expected one of: \(allowed.sorted().joined(separator: ", "))",
                                   at: location)
            }
        case (.number, .number), (.flag, .flag), (.dateRange, .dateRange): break
        default:
            throw GrammarError("\(value) is not a \(field.kind) value for \(field.rawValue)", at: location)
        }
    }
}
