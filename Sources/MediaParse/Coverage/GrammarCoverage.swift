/// Test tooling (`mediaparse test`), not part of the embeddable API: `package`, so the tools target and the
/// tests see it and an app does not.
///
/// Which parts of a grammar the readings of a test run used: sentences, expansion rules, list entries.
/// Rules and entries no utterance exercised are the grammar's untested code.
package struct GrammarCoverage: Sendable {
    var sentences = Set<Int32>()
    var rules = Set<Int32>()
    /// list index << 32 | entry index
    var listEntries = Set<Int64>()

    package init() {}

    mutating func record(_ last: Int32, sentence: Int32, steps: [Step], grammar: CompiledGrammar, wordIDs: [Int32]) {
        sentences.insert(sentence)
        var chain: [Step] = []
        var at = last
        while at >= 0 {
            let step = steps[Int(at)]
            chain.append(step)
            if step.slot >= 0, step.payload >= 0, case let .list(list, _) = grammar.slots[Int(step.slot)].source {
                listEntries.insert(Int64(list) << 32 | Int64(step.payload))
            }
            at = step.parent
        }
        chain.reverse()
        // The modifier layer's steps are not the sentence's: the sentence is replayed without them.
        if grammar.beforeStart >= 0 || grammar.afterStart >= 0 {
            let layer = grammar.isModifierState
            chain.removeAll { $0.state >= 0 && Int($0.state) < layer.count && layer[Int($0.state)] }
        }
        // A call's steps are one step of the sentence (the call's slot), replayed on the call's own automaton.
        var outer: [Step] = []
        var i = 0
        while i < chain.count {
            let step = chain[i]
            guard step.call >= 0 else {
                outer.append(step)
                i += 1
                continue
            }
            var j = i + 1
            while j < chain.count, chain[j].call == step.call, !chain[j].callFirst { j += 1 }
            let call = Int(step.call)
            rules.insert(grammar.calls.rules[call])
            for state in grammar.callStates(along: Array(chain[i..<j]), call: call, wordIDs: wordIDs) {
                for r in grammar.ruleStacks[Int(grammar.calls.nfaRuleStack[Int(state)])] { rules.insert(r) }
            }
            outer.append(Step(parent: -1, slot: grammar.callSlots[call], start: step.start, end: chain[j - 1].end,
                              payload: -1, state: chain[j - 1].state))
            i = j
        }
        for state in grammar.epsilonFreeStates(along: outer, sentence: sentence, wordIDs: wordIDs) {
            for r in grammar.ruleStacks[Int(grammar.nfaRuleStack[Int(state)])] { rules.insert(r) }
        }
    }

    package mutating func merge(_ other: GrammarCoverage) {
        sentences.formUnion(other.sentences)
        rules.formUnion(other.rules)
        listEntries.formUnion(other.listEntries)
    }
}

/// What a coverage report lists: the parts of the grammar no utterance exercised.
package struct UncoveredGrammar: Sendable {
    package struct Item: Sendable {
        package var kind: String      // "sentence", "rule", "list entry"
        package var name: String      // the sentence text, <rule>, {list}: entry
        package var location: SourceLocation
    }
    package var items: [Item]
    package var sentences: (covered: Int, total: Int)
    package var rules: (covered: Int, total: Int)
    package var listEntries: (covered: Int, total: Int)
}

extension MediaParser {
    /// The sentences, rules and list entries of this parser's grammar that `coverage` never saw.
    /// Lists of data (genres, apps, moods …) with more than `largeListSize` entries are summarised, not
    /// listed entry by entry.
    package func uncovered(by coverage: GrammarCoverage, largeListSize: Int = 40) -> UncoveredGrammar {
        var items: [UncoveredGrammar.Item] = []
        for (i, s) in grammar.sentences.enumerated() where !coverage.sentences.contains(Int32(i)) {
            items.append(.init(kind: "sentence", name: s.text, location: s.location))
        }
        for (i, name) in grammar.ruleNames.enumerated() where !coverage.rules.contains(Int32(i)) {
            items.append(.init(kind: "rule", name: "<\(name)>", location: grammar.ruleLocations[i]))
        }
        var entriesTotal = 0, entriesCovered = 0
        for (l, list) in grammar.lists.enumerated() where list.name != MediaParser.appListName {
            let missing = list.locations.indices.filter { !coverage.listEntries.contains(Int64(l) << 32 | Int64($0)) }
            entriesTotal += list.locations.count
            entriesCovered += list.locations.count - missing.count
            if missing.count > largeListSize {
                items.append(.init(kind: "list", name: "{\(list.name)}: \(missing.count) of \(list.locations.count) entries unused",
                                   location: list.locations.first ?? SourceLocation(file: "?")))
                continue
            }
            for e in missing {
                let value = list.values[e].map { "\($0)" } ?? "(as said)"
                items.append(.init(kind: "list entry", name: "{\(list.name)}: \(value)", location: list.locations[e]))
            }
        }
        items.sort { ($0.location.file, $0.location.line ?? 0, $0.location.column ?? 0) < ($1.location.file, $1.location.line ?? 0, $1.location.column ?? 0) }
        return UncoveredGrammar(items: items,
                                sentences: (coverage.sentences.count, grammar.sentences.count),
                                rules: (coverage.rules.count, grammar.ruleNames.count),
                                listEntries: (entriesCovered, entriesTotal))
    }
}
