// The migrations are embedded by `sqlx::migrate!` (`db::MIGRATOR`): a migration added or
// changed must rebuild this crate, or a binary would carry the old set.
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
