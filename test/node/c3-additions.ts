/** What `slotwise init` adds to create-cloudflare's hello world (test/adopter/c3), in either config format. */
export const C3_ADDITIONS = {
  minify: true,
  triggers: { crons: ["* * * * *"] },
  d1_databases: [{ binding: "DB", database_name: "hello-c3", migrations_dir: "migrations" }],
  durable_objects: { bindings: [{ name: "SCHEDULES", class_name: "ScheduleStream" }] },
  migrations: [{ tag: "v1", new_sqlite_classes: ["ScheduleStream"] }],
}
