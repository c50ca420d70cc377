import Foundation

/// What grammar tools (`mediaparse lint`) need to see of a locale's grammar as written: its rules, lists,
/// sentences and modifiers with where each is defined and what each refers to, and the files themselves.
/// Read, not compiled; package access, so that the tooling target can check a grammar without the
/// library publishing its internals.
package struct GrammarOutline: Sendable {
    package struct Piece: Sendable {
        /// "sentence", "rule", "modifier"
        package var kind: String
        package var name: String
        package var text: String?
        package var location: SourceLocation
        /// Rules and lists the piece refers to.
        package var rules: [String]
        package var lists: [String]
        /// Its word sequences, when it has no slot and few enough of them (for duplicates).
        package var expansions: [[String]]?
    }

    package struct List: Sendable {
        package var name: String
        package var location: SourceLocation
        /// Each entry's word sequences (nil when it has too many to spell out) and where it is.
        package var entries: [(expansions: [[String]]?, location: SourceLocation)]
    }

    package var locale: String
    package var icuLocale: String
    package var pieces: [Piece]
    package var lists: [List]
    /// The grammar files of the locale's chain: shown path and text.
    package var files: [(path: String, text: String)]
}

extension GrammarCatalog {
    /// The outline of `locale`'s grammar (see `GrammarOutline`).
    ///
    /// - Throws: `GrammarError` when a file is wrong, `UnsupportedLocaleError` for an unknown locale.
    package func outline(locale: String) throws -> GrammarOutline {
        let loader = GrammarLoader(catalog: self)
        let (name, chain) = try loader.resolve(locale)
        let runtime = try LanguageRuntime(profile: try loader.settings(name: name, chain: chain))
        let definition = try runtime.pool.withSession { session in
            try loader.load(settings: runtime.profile) { runtime.tokenizer.words(of: $0, session: session) }
        }
        func references(_ node: TemplateNode) -> (rules: [String], lists: [String]) {
            switch node {
            case .word: return ([], [])
            case let .sequence(items), let .alternatives(items):
                return items.map(references).reduce(into: ([], [])) { $0.0 += $1.0; $0.1 += $1.1 }
            case let .rule(name, _): return ([name], [])
            case let .slot(list, _, _): return ([], [list])
            case let .repetition(body, _, _): return references(body)
            }
        }
        func piece(_ kind: String, _ name: String, _ text: String?, _ node: TemplateNode, _ location: SourceLocation) -> GrammarOutline.Piece {
            let r = references(node)
            return .init(kind: kind, name: name, text: text, location: location, rules: r.rules, lists: r.lists,
                         expansions: node.expansions(limit: 256))
        }
        var pieces: [GrammarOutline.Piece] = []
        for s in definition.sentences { pieces.append(piece("sentence", s.intent.rawValue, s.text, s.template, s.location)) }
        for m in definition.modifiers { pieces.append(piece("modifier", m.side.rawValue, m.text, m.template, m.location)) }
        for rule in definition.rules.values.sorted(by: { $0.name < $1.name }) {
            pieces.append(piece("rule", rule.name, nil, rule.template, rule.location))
        }
        var lists: [GrammarOutline.List] = []
        for list in definition.lists.values.sorted(by: { $0.name < $1.name }) {
            var entries: [(expansions: [[String]]?, location: SourceLocation)] = []
            if case let .values(values, _) = list.kind {
                entries = values.map { ($0.spoken.expansions(limit: 256), $0.location) }
            }
            lists.append(.init(name: list.name, location: list.location, entries: entries))
        }
        var files: [(path: String, text: String)] = []
        for folder in chain {
            for (_, file) in (folders[folder] ?? [:]).sorted(by: { $0.key < $1.key }) { files.append((file.displayPath, file.text)) }
        }
        return GrammarOutline(locale: name, icuLocale: runtime.profile.icuLocale, pieces: pieces, lists: lists, files: files)
    }
}
