// Generated from scripts/openapi/openapi-document.ts by scripts/openapi/document.ts (npm run build:openapi): do not edit.
/** The admin's OpenAPI document without its server, as a Worker answers (JSON Schemas from answers.ts and inputs.ts). */
export const DOCUMENT = {
 "openapi": "3.1.0",
 "info": {
  "title": "slotwise admin",
  "version": "0.1.0",
  "description": "See and fix jobs, leases and schedules."
 },
 "tags": [
  {
   "name": "admin",
   "description": "slotwise's admin: jobs, leases, schedule streams and health"
  }
 ],
 "paths": {
  "/health": {
   "get": {
    "operationId": "health",
    "summary": "Whether the heartbeat fires, what the watchdog's last run found overdue, and how many schedules are retrying",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/HealthView"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/jobs": {
   "get": {
    "operationId": "jobs",
    "summary": "Every declared job with its next slot, its lease, its last run and its newest slots (runs and gaps)",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/JobsAnswer"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/jobs/{name}/run": {
   "post": {
    "operationId": "runJob",
    "summary": "Runs a job now for the current minute's slot (an exclusive job still claims it)",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "name",
      "in": "path",
      "required": true,
      "description": "a job's name",
      "schema": {
       "type": "string",
       "pattern": "^[a-z0-9][a-z0-9._-]{0,99}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/RunAnswer"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "Conflict with the current state",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/jobs/{name}/history": {
   "get": {
    "operationId": "jobHistory",
    "summary": "An exclusive job's runs per UTC hour: slots due, ran, failed, timed out, skipped and missed, and the median and max duration",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "name",
      "in": "path",
      "required": true,
      "description": "a job's name",
      "schema": {
       "type": "string",
       "pattern": "^[a-z0-9][a-z0-9._-]{0,99}$"
      }
     },
     {
      "name": "days",
      "in": "query",
      "required": false,
      "description": "days back from now, 1..30 (default 7)",
      "schema": {
       "type": "number"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/JobHistory"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/jobs/{name}/pause": {
   "post": {
    "operationId": "pauseJob",
    "summary": "Pauses a job, with a reason: the heartbeat skips its slots (shown as paused, not missed) until it is resumed. Pausing a paused job changes nothing (created: false)",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "name",
      "in": "path",
      "required": true,
      "description": "a job's name",
      "schema": {
       "type": "string",
       "pattern": "^[a-z0-9][a-z0-9._-]{0,99}$"
      }
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/PauseBody"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/PauseAnswer"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/jobs/{name}/resume": {
   "post": {
    "operationId": "resumeJob",
    "summary": "Resumes a paused job: it runs again from its next slot. 409 when it is not paused",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "name",
      "in": "path",
      "required": true,
      "description": "a job's name",
      "schema": {
       "type": "string",
       "pattern": "^[a-z0-9][a-z0-9._-]{0,99}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ResumeAnswer"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "Conflict with the current state",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/leases": {
   "get": {
    "operationId": "leases",
    "summary": "Every lease row, declared job or not",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/LeasesAnswer"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/leases/{name}": {
   "delete": {
    "operationId": "releaseLease",
    "summary": "Releases a lease; last_slot stays, so its slot is still refused. A lease still within its run's timeout is 409 unless forced; the run's outcome is still recorded",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "name",
      "in": "path",
      "required": true,
      "description": "a job's name",
      "schema": {
       "type": "string",
       "pattern": "^[a-z0-9][a-z0-9._-]{0,99}$"
      }
     },
     {
      "name": "force",
      "in": "query",
      "required": false,
      "description": "true releases a lease still held by a run within its timeout",
      "schema": {
       "type": "string",
       "enum": [
        "true",
        "false"
       ]
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ReleaseAnswer"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "Conflict with the current state",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/streams": {
   "get": {
    "operationId": "streams",
    "summary": "The streams in the directory, by name",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "description": "page size, 1..500 (default 50)",
      "schema": {
       "type": "number"
      }
     },
     {
      "name": "cursor",
      "in": "query",
      "required": false,
      "description": "the previous page's cursor: the last stream name it showed",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/StreamsPage"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/streams/{stream}/summary": {
   "get": {
    "operationId": "summary",
    "summary": "A stream's schedules counted by state, how many retry, and the overdue one due longest ago",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/StreamSummary"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/streams/{stream}/schedules": {
   "get": {
    "operationId": "schedules",
    "summary": "A stream's schedules by id, optionally in one state",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     },
     {
      "name": "state",
      "in": "query",
      "required": false,
      "description": "scheduled, completed, cancelled or failed",
      "schema": {
       "type": "string",
       "enum": [
        "scheduled",
        "completed",
        "cancelled",
        "failed"
       ]
      }
     },
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "description": "page size, 1..500 (default 50)",
      "schema": {
       "type": "number"
      }
     },
     {
      "name": "cursor",
      "in": "query",
      "required": false,
      "description": "the previous page's cursor: the last schedule id it showed",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/SchedulesPage"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/streams/{stream}/schedules/{id}": {
   "get": {
    "operationId": "schedule",
    "summary": "A schedule and its newest events (each schedule keeps its newest 12)",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     },
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "a schedule's id",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ScheduleDetail"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   },
   "put": {
    "operationId": "putSchedule",
    "summary": "Creates or replaces a schedule (the same rules as the client's upsert)",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     },
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "a schedule's id",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/ScheduleBody"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ScheduleAnswer"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   },
   "delete": {
    "operationId": "remove",
    "summary": "Removes a finished or cancelled schedule now (a scheduled one: cancel it first)",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     },
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "a schedule's id",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/RemoveAnswer"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "Conflict with the current state",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/streams/{stream}/schedules/{id}/cancel": {
   "post": {
    "operationId": "cancel",
    "summary": "Cancels a schedule: nothing more is delivered until it is resumed",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     },
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "a schedule's id",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ScheduleAnswer"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "Conflict with the current state",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/streams/{stream}/schedules/{id}/resume": {
   "post": {
    "operationId": "resume",
    "summary": "Resumes a cancelled or failed schedule from its next due time",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     },
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "a schedule's id",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ScheduleAnswer"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "Conflict with the current state",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/streams/{stream}/schedules/{id}/trigger": {
   "post": {
    "operationId": "trigger",
    "summary": "Delivers the current occurrence now; the cadence is unchanged",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     },
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "a schedule's id",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ScheduleAnswer"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "409": {
      "description": "Conflict with the current state",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/streams/{stream}/history": {
   "get": {
    "operationId": "streamHistory",
    "summary": "A stream's deliveries, retries, failures and lateness (median, p99, max) per minute for the last day, or per hour for 30 days",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     },
     {
      "name": "range",
      "in": "query",
      "required": false,
      "description": "day (per minute, the default) or month (per hour)",
      "schema": {
       "type": "string",
       "enum": [
        "day",
        "month"
       ]
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/StreamHistory"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  },
  "/streams/{stream}/events": {
   "get": {
    "operationId": "events",
    "summary": "A stream's newest events",
    "tags": [
     "admin"
    ],
    "security": [
     {
      "bearer": []
     }
    ],
    "parameters": [
     {
      "name": "stream",
      "in": "path",
      "required": true,
      "description": "a stream's name",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     },
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "description": "page size, 1..500 (default 50)",
      "schema": {
       "type": "number"
      }
     },
     {
      "name": "before",
      "in": "query",
      "required": false,
      "description": "an event seq: only older events",
      "schema": {
       "type": "number"
      }
     },
     {
      "name": "scheduleId",
      "in": "query",
      "required": false,
      "description": "only this schedule's events",
      "schema": {
       "type": "string",
       "pattern": "^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,128}$"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/EventsPage"
        }
       }
      }
     },
     "400": {
      "description": "Invalid input (the problem's field names it)",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "401": {
      "description": "Missing or wrong bearer token",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "404": {
      "description": "No such job, lease, stream or schedule",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     },
     "503": {
      "description": "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
      "content": {
       "application/problem+json": {
        "schema": {
         "$ref": "#/components/schemas/Problem"
        }
       }
      }
     }
    }
   }
  }
 },
 "components": {
  "securitySchemes": {
   "bearer": {
    "type": "http",
    "scheme": "bearer"
   }
  },
  "schemas": {
   "Json": {
    "description": "any JSON value"
   },
   "Problem": {
    "type": "object",
    "properties": {
     "type": {
      "type": "string"
     },
     "title": {
      "type": "string"
     },
     "status": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "detail": {
      "type": "string"
     },
     "field": {
      "type": "string"
     }
    },
    "required": [
     "type",
     "title",
     "status",
     "detail"
    ],
    "additionalProperties": {}
   },
   "RunRecord": {
    "type": "object",
    "properties": {
     "slot": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "runId": {
      "type": "string"
     },
     "outcome": {
      "type": "string",
      "enum": [
       "ran",
       "failed",
       "timed-out"
      ]
     },
     "ms": {
      "type": "number"
     },
     "finishedAt": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "error": {
      "type": [
       "string",
       "null"
      ]
     }
    },
    "required": [
     "slot",
     "runId",
     "outcome",
     "ms",
     "finishedAt",
     "error"
    ],
    "additionalProperties": false
   },
   "SlotEntry": {
    "type": "object",
    "properties": {
     "slot": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "status": {
      "type": "string",
      "enum": [
       "ran",
       "failed",
       "timed-out",
       "running",
       "unrecorded",
       "missed",
       "paused"
      ]
     },
     "run": {
      "anyOf": [
       {
        "$ref": "#/components/schemas/RunRecord"
       },
       {
        "type": "null"
       }
      ]
     }
    },
    "required": [
     "slot",
     "status",
     "run"
    ],
    "additionalProperties": false
   },
   "LeaseView": {
    "type": "object",
    "properties": {
     "lastSlot": {
      "anyOf": [
       {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       {
        "type": "null"
       }
      ]
     },
     "leaseUntil": {
      "anyOf": [
       {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       {
        "type": "null"
       }
      ]
     },
     "holder": {
      "type": [
       "string",
       "null"
      ]
     },
     "status": {
      "type": "string",
      "enum": [
       "free",
       "held",
       "expired"
      ]
     }
    },
    "required": [
     "lastSlot",
     "leaseUntil",
     "holder",
     "status"
    ],
    "additionalProperties": false
   },
   "Pause": {
    "type": "object",
    "properties": {
     "job": {
      "type": "string"
     },
     "pausedAt": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "pausedBy": {
      "type": [
       "string",
       "null"
      ]
     },
     "reason": {
      "type": "string"
     },
     "resumedAt": {
      "anyOf": [
       {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       {
        "type": "null"
       }
      ]
     },
     "resumedBy": {
      "type": [
       "string",
       "null"
      ]
     }
    },
    "required": [
     "job",
     "pausedAt",
     "pausedBy",
     "reason",
     "resumedAt",
     "resumedBy"
    ],
    "additionalProperties": false
   },
   "JobView": {
    "type": "object",
    "properties": {
     "name": {
      "type": "string"
     },
     "cron": {
      "type": "string"
     },
     "exclusive": {
      "type": "boolean"
     },
     "timeoutMs": {
      "type": "number"
     },
     "leaseMs": {
      "type": "number"
     },
     "nextSlot": {
      "anyOf": [
       {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       {
        "type": "null"
       }
      ]
     },
     "lease": {
      "$ref": "#/components/schemas/LeaseView"
     },
     "lastRun": {
      "anyOf": [
       {
        "$ref": "#/components/schemas/RunRecord"
       },
       {
        "type": "null"
       }
      ]
     },
     "slots": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/SlotEntry"
      }
     },
     "paused": {
      "anyOf": [
       {
        "$ref": "#/components/schemas/Pause"
       },
       {
        "type": "null"
       }
      ]
     }
    },
    "required": [
     "name",
     "cron",
     "exclusive",
     "timeoutMs",
     "leaseMs",
     "nextSlot",
     "lease",
     "lastRun",
     "slots",
     "paused"
    ],
    "additionalProperties": false
   },
   "HealthView": {
    "type": "object",
    "properties": {
     "now": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "ok": {
      "type": "boolean"
     },
     "heartbeat": {
      "type": "object",
      "properties": {
       "status": {
        "type": "string",
        "enum": [
         "alive",
         "late",
         "ahead",
         "unknown"
        ]
       },
       "lastFiredAt": {
        "anyOf": [
         {
          "type": "integer",
          "minimum": -9007199254740991,
          "maximum": 9007199254740991
         },
         {
          "type": "null"
         }
        ]
       },
       "missedSlot": {
        "anyOf": [
         {
          "type": "integer",
          "minimum": -9007199254740991,
          "maximum": 9007199254740991
         },
         {
          "type": "null"
         }
        ]
       },
       "aheadSlot": {
        "anyOf": [
         {
          "type": "integer",
          "minimum": -9007199254740991,
          "maximum": 9007199254740991
         },
         {
          "type": "null"
         }
        ]
       },
       "ageMs": {
        "type": [
         "number",
         "null"
        ]
       }
      },
      "required": [
       "status",
       "lastFiredAt",
       "missedSlot",
       "aheadSlot",
       "ageMs"
      ],
      "additionalProperties": false
     },
     "watchdog": {
      "type": "object",
      "properties": {
       "job": {
        "type": "string"
       },
       "declared": {
        "type": "boolean"
       },
       "lastRun": {
        "anyOf": [
         {
          "$ref": "#/components/schemas/RunRecord"
         },
         {
          "type": "null"
         }
        ]
       },
       "summary": {
        "anyOf": [
         {
          "type": "object",
          "properties": {
           "overdue": {
            "type": "integer",
            "minimum": -9007199254740991,
            "maximum": 9007199254740991
           },
           "nudged": {
            "type": "integer",
            "minimum": -9007199254740991,
            "maximum": 9007199254740991
           },
           "failed": {
            "type": "integer",
            "minimum": -9007199254740991,
            "maximum": 9007199254740991
           },
           "mostOverdue": {
            "anyOf": [
             {
              "type": "object",
              "properties": {
               "stream": {
                "type": "string"
               },
               "lagMs": {
                "type": "number"
               }
              },
              "required": [
               "stream",
               "lagMs"
              ],
              "additionalProperties": false
             },
             {
              "type": "null"
             }
            ]
           }
          },
          "required": [
           "overdue",
           "nudged",
           "failed",
           "mostOverdue"
          ],
          "additionalProperties": false
         },
         {
          "type": "null"
         }
        ]
       }
      },
      "required": [
       "job",
       "declared",
       "lastRun",
       "summary"
      ],
      "additionalProperties": false
     },
     "retrying": {
      "type": "object",
      "properties": {
       "schedules": {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       "streamsAsked": {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       "unanswered": {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       "complete": {
        "type": "boolean"
       }
      },
      "required": [
       "schedules",
       "streamsAsked",
       "unanswered",
       "complete"
      ],
      "additionalProperties": false
     },
     "paused": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/Pause"
      }
     }
    },
    "required": [
     "now",
     "ok",
     "heartbeat",
     "watchdog",
     "retrying",
     "paused"
    ],
    "additionalProperties": false
   },
   "Timing": {
    "anyOf": [
     {
      "type": "object",
      "properties": {
       "kind": {
        "type": "string",
        "const": "at"
       },
       "atMs": {
        "type": "number"
       }
      },
      "required": [
       "kind",
       "atMs"
      ],
      "additionalProperties": false
     },
     {
      "type": "object",
      "properties": {
       "kind": {
        "type": "string",
        "const": "after"
       },
       "afterMs": {
        "type": "number"
       }
      },
      "required": [
       "kind",
       "afterMs"
      ],
      "additionalProperties": false
     },
     {
      "type": "object",
      "properties": {
       "kind": {
        "type": "string",
        "const": "every"
       },
       "everyMs": {
        "type": "number"
       }
      },
      "required": [
       "kind",
       "everyMs"
      ],
      "additionalProperties": false
     },
     {
      "type": "object",
      "properties": {
       "kind": {
        "type": "string",
        "const": "cron"
       },
       "cron": {
        "type": "string"
       },
       "timezone": {
        "type": "string"
       }
      },
      "required": [
       "kind",
       "cron",
       "timezone"
      ],
      "additionalProperties": false
     }
    ]
   },
   "ScheduleView": {
    "type": "object",
    "properties": {
     "stream": {
      "type": "string"
     },
     "id": {
      "type": "string"
     },
     "consumer": {
      "type": "string"
     },
     "timing": {
      "$ref": "#/components/schemas/Timing"
     },
     "payload": {
      "$ref": "#/components/schemas/Json"
     },
     "maxAttempts": {
      "anyOf": [
       {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       {
        "type": "null"
       }
      ]
     },
     "state": {
      "type": "string",
      "enum": [
       "scheduled",
       "completed",
       "cancelled",
       "failed"
      ]
     },
     "occurrence": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "idempotencyKey": {
      "type": "string"
     },
     "nextAt": {
      "type": "number"
     },
     "retryAt": {
      "type": [
       "number",
       "null"
      ]
     },
     "claimUntil": {
      "type": [
       "number",
       "null"
      ]
     },
     "eligibleAt": {
      "type": "number"
     },
     "attempts": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "lastError": {
      "type": [
       "string",
       "null"
      ]
     },
     "createdAt": {
      "type": "number"
     },
     "updatedAt": {
      "type": "number"
     }
    },
    "required": [
     "stream",
     "id",
     "consumer",
     "timing",
     "payload",
     "maxAttempts",
     "state",
     "occurrence",
     "idempotencyKey",
     "nextAt",
     "retryAt",
     "claimUntil",
     "eligibleAt",
     "attempts",
     "lastError",
     "createdAt",
     "updatedAt"
    ],
    "additionalProperties": false
   },
   "ScheduleEvent": {
    "type": "object",
    "properties": {
     "type": {
      "type": "string",
      "enum": [
       "schedule/set",
       "schedule/cancelled",
       "schedule/fired",
       "schedule/late",
       "schedule/failed",
       "schedule/removed"
      ]
     },
     "scheduleId": {
      "type": "string"
     },
     "data": {
      "type": "object",
      "propertyNames": {
       "type": "string"
      },
      "additionalProperties": {}
     },
     "seq": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "at": {
      "type": "number"
     }
    },
    "required": [
     "type",
     "scheduleId",
     "data",
     "seq",
     "at"
    ],
    "additionalProperties": false
   },
   "StreamSummary": {
    "type": "object",
    "properties": {
     "stream": {
      "type": "string"
     },
     "now": {
      "type": "number"
     },
     "counts": {
      "type": "object",
      "properties": {
       "scheduled": {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       "completed": {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       "cancelled": {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       "failed": {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       }
      },
      "required": [
       "scheduled",
       "completed",
       "cancelled",
       "failed"
      ],
      "additionalProperties": false
     },
     "retrying": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "partial": {
      "type": "boolean"
     },
     "overdue": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "oldestOverdue": {
      "anyOf": [
       {
        "type": "object",
        "properties": {
         "id": {
          "type": "string"
         },
         "dueAt": {
          "type": "number"
         },
         "lagMs": {
          "type": "number"
         }
        },
        "required": [
         "id",
         "dueAt",
         "lagMs"
        ],
        "additionalProperties": false
       },
       {
        "type": "null"
       }
      ]
     }
    },
    "required": [
     "stream",
     "now",
     "counts",
     "retrying",
     "partial",
     "overdue",
     "oldestOverdue"
    ],
    "additionalProperties": false
   },
   "JobHistory": {
    "type": "object",
    "properties": {
     "job": {
      "type": "string"
     },
     "now": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "days": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "knownSince": {
      "anyOf": [
       {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
       },
       {
        "type": "null"
       }
      ]
     },
     "hours": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "hour": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "due": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "ran": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "failed": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "timedOut": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "skipped": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "missed": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "paused": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "medianMs": {
         "type": [
          "number",
          "null"
         ]
        },
        "maxMs": {
         "type": [
          "number",
          "null"
         ]
        }
       },
       "required": [
        "hour",
        "due",
        "ran",
        "failed",
        "timedOut",
        "skipped",
        "missed",
        "paused",
        "medianMs",
        "maxMs"
       ],
       "additionalProperties": false
      }
     },
     "today": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "slot": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "status": {
         "type": "string",
         "enum": [
          "ran",
          "failed",
          "timed-out",
          "skipped",
          "missed",
          "paused",
          "claimed",
          "due",
          "unknown"
         ]
        },
        "ms": {
         "type": [
          "number",
          "null"
         ]
        }
       },
       "required": [
        "slot",
        "status",
        "ms"
       ],
       "additionalProperties": false
      }
     }
    },
    "required": [
     "job",
     "now",
     "days",
     "knownSince",
     "hours",
     "today"
    ],
    "additionalProperties": false
   },
   "StreamHistory": {
    "type": "object",
    "properties": {
     "stream": {
      "type": "string"
     },
     "now": {
      "type": "number"
     },
     "range": {
      "type": "string",
      "enum": [
       "day",
       "month"
      ]
     },
     "stepMs": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "points": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "at": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "delivered": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "retried": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "failed": {
         "type": "integer",
         "minimum": -9007199254740991,
         "maximum": 9007199254740991
        },
        "lateMedianMs": {
         "type": [
          "number",
          "null"
         ]
        },
        "lateP99Ms": {
         "type": [
          "number",
          "null"
         ]
        },
        "lateMaxMs": {
         "type": [
          "number",
          "null"
         ]
        }
       },
       "required": [
        "at",
        "delivered",
        "retried",
        "failed",
        "lateMedianMs",
        "lateP99Ms",
        "lateMaxMs"
       ],
       "additionalProperties": false
      }
     }
    },
    "required": [
     "stream",
     "now",
     "range",
     "stepMs",
     "points"
    ],
    "additionalProperties": false
   },
   "ScheduleAnswer": {
    "type": "object",
    "properties": {
     "schedule": {
      "$ref": "#/components/schemas/ScheduleView"
     }
    },
    "required": [
     "schedule"
    ],
    "additionalProperties": false
   },
   "JobsAnswer": {
    "type": "object",
    "properties": {
     "now": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "jobs": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/JobView"
      }
     }
    },
    "required": [
     "now",
     "jobs"
    ],
    "additionalProperties": false
   },
   "RunAnswer": {
    "type": "object",
    "properties": {
     "job": {
      "type": "string"
     },
     "slot": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "status": {
      "type": "string",
      "enum": [
       "ran",
       "failed",
       "timed-out"
      ]
     },
     "runId": {
      "type": "string"
     },
     "ms": {
      "type": "number"
     }
    },
    "required": [
     "job",
     "slot",
     "status",
     "runId",
     "ms"
    ],
    "additionalProperties": false
   },
   "LeasesAnswer": {
    "type": "object",
    "properties": {
     "now": {
      "type": "integer",
      "minimum": -9007199254740991,
      "maximum": 9007199254740991
     },
     "leases": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "lastSlot": {
         "anyOf": [
          {
           "type": "integer",
           "minimum": -9007199254740991,
           "maximum": 9007199254740991
          },
          {
           "type": "null"
          }
         ]
        },
        "leaseUntil": {
         "anyOf": [
          {
           "type": "integer",
           "minimum": -9007199254740991,
           "maximum": 9007199254740991
          },
          {
           "type": "null"
          }
         ]
        },
        "holder": {
         "type": [
          "string",
          "null"
         ]
        },
        "status": {
         "type": "string",
         "enum": [
          "free",
          "held",
          "expired"
         ]
        },
        "name": {
         "type": "string"
        },
        "declared": {
         "type": "boolean"
        }
       },
       "required": [
        "lastSlot",
        "leaseUntil",
        "holder",
        "status",
        "name",
        "declared"
       ],
       "additionalProperties": false
      }
     }
    },
    "required": [
     "now",
     "leases"
    ],
    "additionalProperties": false
   },
   "ReleaseAnswer": {
    "type": "object",
    "properties": {
     "released": {
      "type": "boolean"
     },
     "lease": {
      "$ref": "#/components/schemas/LeaseView"
     }
    },
    "required": [
     "released",
     "lease"
    ],
    "additionalProperties": false
   },
   "PauseAnswer": {
    "type": "object",
    "properties": {
     "pause": {
      "$ref": "#/components/schemas/Pause"
     },
     "created": {
      "type": "boolean"
     }
    },
    "required": [
     "pause",
     "created"
    ],
    "additionalProperties": false
   },
   "ResumeAnswer": {
    "type": "object",
    "properties": {
     "pause": {
      "$ref": "#/components/schemas/Pause"
     }
    },
    "required": [
     "pause"
    ],
    "additionalProperties": false
   },
   "StreamsPage": {
    "type": "object",
    "properties": {
     "streams": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "name": {
         "type": "string"
        },
        "listedAt": {
         "type": "number"
        }
       },
       "required": [
        "name",
        "listedAt"
       ],
       "additionalProperties": false
      }
     },
     "cursor": {
      "type": [
       "string",
       "null"
      ]
     }
    },
    "required": [
     "streams",
     "cursor"
    ],
    "additionalProperties": false
   },
   "SchedulesPage": {
    "type": "object",
    "properties": {
     "schedules": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/ScheduleView"
      }
     },
     "cursor": {
      "type": [
       "string",
       "null"
      ]
     }
    },
    "required": [
     "schedules",
     "cursor"
    ],
    "additionalProperties": false
   },
   "ScheduleDetail": {
    "type": "object",
    "properties": {
     "schedule": {
      "$ref": "#/components/schemas/ScheduleView"
     },
     "events": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/ScheduleEvent"
      }
     }
    },
    "required": [
     "schedule",
     "events"
    ],
    "additionalProperties": false
   },
   "RemoveAnswer": {
    "type": "object",
    "properties": {
     "removed": {
      "type": "boolean",
      "const": true
     },
     "schedule": {
      "$ref": "#/components/schemas/ScheduleView"
     }
    },
    "required": [
     "removed",
     "schedule"
    ],
    "additionalProperties": false
   },
   "EventsPage": {
    "type": "object",
    "properties": {
     "events": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/ScheduleEvent"
      }
     }
    },
    "required": [
     "events"
    ],
    "additionalProperties": false
   },
   "ScheduleBody": {
    "oneOf": [
     {
      "type": "object",
      "additionalProperties": false,
      "title": "ScheduleBody (at)",
      "properties": {
       "id": {
        "type": "string",
        "description": "the path's id, if given"
       },
       "consumer": {
        "type": "string",
        "maxLength": 128
       },
       "payload": {
        "description": "any JSON, at most 65536 bytes and 64 levels deep"
       },
       "maxAttempts": {
        "description": "an integer 1..1000, or null (retry until terminal)"
       },
       "at": {
        "anyOf": [
         {
          "type": "number"
         },
         {
          "type": "string",
          "maxLength": 64
         }
        ],
        "description": "epoch ms or ISO 8601 with offset"
       },
       "after": false,
       "every": false,
       "cron": false,
       "timezone": false
      },
      "required": [
       "consumer",
       "at"
      ]
     },
     {
      "type": "object",
      "additionalProperties": false,
      "title": "ScheduleBody (after)",
      "properties": {
       "id": {
        "type": "string",
        "description": "the path's id, if given"
       },
       "consumer": {
        "type": "string",
        "maxLength": 128
       },
       "payload": {
        "description": "any JSON, at most 65536 bytes and 64 levels deep"
       },
       "maxAttempts": {
        "description": "an integer 1..1000, or null (retry until terminal)"
       },
       "at": false,
       "after": {
        "anyOf": [
         {
          "type": "number"
         },
         {
          "type": "string",
          "maxLength": 64
         }
        ],
        "description": "ms or \"10 minutes\""
       },
       "every": false,
       "cron": false,
       "timezone": false
      },
      "required": [
       "consumer",
       "after"
      ]
     },
     {
      "type": "object",
      "additionalProperties": false,
      "title": "ScheduleBody (every)",
      "properties": {
       "id": {
        "type": "string",
        "description": "the path's id, if given"
       },
       "consumer": {
        "type": "string",
        "maxLength": 128
       },
       "payload": {
        "description": "any JSON, at most 65536 bytes and 64 levels deep"
       },
       "maxAttempts": {
        "description": "an integer 1..1000, or null (retry until terminal)"
       },
       "at": false,
       "after": false,
       "every": {
        "anyOf": [
         {
          "type": "number"
         },
         {
          "type": "string",
          "maxLength": 64
         }
        ],
        "description": "ms or \"10 minutes\""
       },
       "cron": false,
       "timezone": false
      },
      "required": [
       "consumer",
       "every"
      ]
     },
     {
      "type": "object",
      "additionalProperties": false,
      "title": "ScheduleBody (cron)",
      "properties": {
       "id": {
        "type": "string",
        "description": "the path's id, if given"
       },
       "consumer": {
        "type": "string",
        "maxLength": 128
       },
       "payload": {
        "description": "any JSON, at most 65536 bytes and 64 levels deep"
       },
       "maxAttempts": {
        "description": "an integer 1..1000, or null (retry until terminal)"
       },
       "at": false,
       "after": false,
       "every": false,
       "cron": {
        "type": "string",
        "maxLength": 256,
        "description": "5 fields"
       },
       "timezone": {
        "type": "string",
        "maxLength": 64,
        "description": "IANA name, for cron (default UTC)"
       }
      },
      "required": [
       "consumer",
       "cron"
      ]
     }
    ]
   },
   "PauseBody": {
    "type": "object",
    "properties": {
     "reason": {
      "type": "string",
      "minLength": 1,
      "maxLength": 500
     }
    },
    "required": [
     "reason"
    ],
    "additionalProperties": false
   }
  }
 }
}
