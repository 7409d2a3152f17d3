// `node readme-command.mjs README.md "<command>"`: exits 1 unless README's "Add slotwise to an existing Worker"
// section shows this command, word for word, as a line of one of its sh blocks (a `# comment` after it aside).
// run.sh runs each README command through this, so a command README shows is the one the adopter test runs.
import { readFileSync } from "node:fs"

/** The section's sh command lines, comments after them cut. */
export function readmeCommands(readme) {
  const start = readme.indexOf("## Add slotwise to an existing Worker\n")
  if (start < 0) throw new Error('README has no "## Add slotwise to an existing Worker" section')
  const end = readme.indexOf("\n## ", start + 1)
  const section = readme.slice(start, end < 0 ? undefined : end)
  const commands = []
  for (const [, body] of section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of body.split("\n")) {
      const command = line.replace(/\s+#.*$/, "").trim()
      if (command !== "" && !command.startsWith("#")) commands.push(command)
    }
  }
  return commands
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, command] = process.argv.slice(2)
  if (!readmeCommands(readFileSync(file, "utf8")).includes(command)) {
    console.error(`README's adopter section does not show "${command}": the adopter test runs what README shows`)
    process.exit(1)
  }
}
