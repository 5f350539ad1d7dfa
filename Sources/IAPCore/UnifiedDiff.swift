/// A unified diff of two texts by lines, as `diff -u` writes it (three lines of context), for a change shown before
/// it is made. Myers' algorithm: time and memory grow with the lines that differ, not with the file.
public enum UnifiedDiff {
    public static func text(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        let a = lines(old)
        let b = lines(new)
        let script = edits(a, b)
        guard script.contains(where: { $0 != .same }) else { return "" }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        // Positions in a and b before each step of the script.
        var positions: [(Int, Int)] = []
        var (i, j) = (0, 0)
        for step in script {
            positions.append((i, j))
            switch step {
            case .same: i += 1; j += 1
            case .delete: i += 1
            case .insert: j += 1
            }
        }
        var index = 0
        while index < script.count {
            guard script[index] != .same else { index += 1; continue }
            // A hunk: this change and every change within 2 × context lines of it, with context around.
            let start = max(0, index - context)
            var end = index
            var lastChange = index
            while end < script.count {
                if script[end] != .same { lastChange = end }
                if end - lastChange > 2 * context { break }
                end += 1
            }
            let stop = min(script.count, lastChange + context + 1)
            let (oldStart, newStart) = positions[start]
            let oldCount = script[start..<stop].filter { $0 != .insert }.count
            let newCount = script[start..<stop].filter { $0 != .delete }.count
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for at in start..<stop {
                let (x, y) = positions[at]
                switch script[at] {
                case .same: out += " " + a[x] + "\n"
                case .delete: out += "-" + a[x] + "\n"
                case .insert: out += "+" + b[y] + "\n"
                }
            }
            index = stop
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start + 1)" : "\(count == 0 ? start : start + 1),\(count)"
    }

    /// Lines split at each `\n` byte: a `\r` before it stays in the line, as `diff` keeps it, so a file with CRLF line
    /// ends diffs line by line (to Swift, `\r\n` is one character, never equal to `\n`).
    private static func lines(_ text: String) -> [Substring] {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    enum Step: Equatable { case same, delete, insert }

    /// The shortest edit script from `a` to `b`.
    static func edits(_ a: [Substring], _ b: [Substring]) -> [Step] {
        let n = a.count
        let m = b.count
        // Common head and tail need no search.
        var head = 0
        while head < n, head < m, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < n - head, tail < m - head, a[n - 1 - tail] == b[m - 1 - tail] { tail += 1 }
        let x0 = head
        let y0 = head
        let aCount = n - head - tail
        let bCount = m - head - tail
        var middle: [Step] = []
        if aCount == 0 {
            middle = Array(repeating: .insert, count: bCount)
        } else if bCount == 0 {
            middle = Array(repeating: .delete, count: aCount)
        } else {
            let maximum = aCount + bCount
            // Room for the diagonals -maximum-1 … maximum+1.
            let offset = maximum + 1
            var v = Array(repeating: 0, count: 2 * maximum + 3)
            // Each step keeps only the diagonals it can reach, so memory grows with the square of the lines that differ.
            var trace: [[Int]] = []
            search: for d in 0...maximum {
                trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
                for k in stride(from: -d, through: d, by: 2) {
                    var x: Int
                    if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                        x = v[offset + k + 1]
                    } else {
                        x = v[offset + k - 1] + 1
                    }
                    var y = x - k
                    while x < aCount, y < bCount, a[x0 + x] == b[y0 + y] {
                        x += 1
                        y += 1
                    }
                    v[offset + k] = x
                    if x >= aCount, y >= bCount { break search }
                }
            }
            // Back through the trace, from the end.
            var x = aCount
            var y = bCount
            for d in stride(from: trace.count - 1, through: 0, by: -1) {
                let saved = trace[d]
                func v(_ k: Int) -> Int { saved[k + d + 1] }
                let k = x - y
                let previousK = (k == -d || (k != d && v(k - 1) < v(k + 1))) ? k + 1 : k - 1
                let previousX = d == 0 ? 0 : v(previousK)
                let previousY = previousX - previousK
                while x > previousX, y > previousY {
                    middle.append(.same)
                    x -= 1
                    y -= 1
                }
                if d > 0 {
                    middle.append(x == previousX ? .insert : .delete)
                    x = previousX
                    y = previousY
                }
            }
            middle.reverse()
        }
        return Array(repeating: .same, count: head) + middle + Array(repeating: .same, count: tail)
    }
}
