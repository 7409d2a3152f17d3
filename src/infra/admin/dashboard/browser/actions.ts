import type { ScheduleState } from "../../../schedules/contract/states.ts"

export type ScheduleVerb = "cancel" | "resume" | "trigger" | "remove"

const OFFERED: Readonly<Record<ScheduleState, readonly ScheduleVerb[]>> = {
  scheduled: ["trigger", "cancel"],
  failed: ["resume", "remove"],
  cancelled: ["resume", "remove"],
  completed: ["remove"],
}

/** What a schedule in this state offers: Trigger and Cancel while scheduled, Resume once stopped, Remove once finished. */
export const verbsFor = (state: ScheduleState): readonly ScheduleVerb[] => OFFERED[state]

/** Actions that stop or delete something: shown in red, and confirmed like every action. */
export const DESTRUCTIVE: ReadonlySet<ScheduleVerb> = new Set(["cancel", "remove"])

export const LABEL: Readonly<Record<ScheduleVerb, string>> = {
  cancel: "Cancel",
  resume: "Resume",
  trigger: "Trigger",
  remove: "Remove",
}

export const QUESTION: Readonly<Record<ScheduleVerb, (what: string) => string>> = {
  cancel: (what) => `Cancel schedule ${what}? It stops firing until resumed. Why (optional, kept on the schedule)?`,
  resume: (what) => `Resume schedule ${what}? It fires again from its next due time.`,
  trigger: (what) => `Trigger schedule ${what} now? Its current occurrence is delivered at once.`,
  remove: (what) =>
    `Remove schedule ${what} now? Its row is deleted; reusing its id later starts again at occurrence 1.`,
}
