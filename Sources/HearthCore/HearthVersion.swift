/// The one place the version is written; the CLI, health endpoint and packaging read it from here.
public enum HearthVersion {
    public static let current = "0.1.0"
}
