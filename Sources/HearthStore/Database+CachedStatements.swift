import GRDB

extension Database {
    /// `execute(sql:arguments:)` for one statement, compiled once per
    /// connection and kept. The hub runs the same few statements for every
    /// dose and every read, and compiling them (with GRDB's authorizer
    /// walking each one) cost several times more than running them.
    func cachedExecute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
