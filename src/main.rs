fn main() -> anyhow::Result<()> {
    encore::cli::main()
}
