/**
 * The message helpers: `POST`/`DELETE` on a message's `send` and `schedule` paths
 * (links `std:send_helper` and `std:schedule_helper`). Keyed calls only: the
 * authentication middleware refuses them without a key, and a read key gets 403.
 * The rules live in `domain/messages.ts`.
 */

import type { Context, Hono } from 'hono';
import { checkMessageSchedule } from '../../domain/message-schedule.js';
import { actOnMessage, type MessageAction } from '../../domain/messages.js';
import { readJsonObject, takeControl } from '../body.js';
import type { AppConfig, AppEnv } from '../env.js';
import { methodNotAllowed } from '../middleware.js';
import { hal } from '../respond.js';

/**
 * Options of {@link registerMessageHelpers}.
 */
export interface MessageHelperOptions {
  /** Recipients per second of a simulated send. */
  sendRate: number;
}

/**
 * Registers the message helper routes (before the generic record routes, whose
 * sub-collection route would otherwise take `send` and `schedule`). Each answers
 * `200 { notice }`; other methods 405.
 */
export function registerMessageHelpers(
  app: Hono<AppEnv>,
  config: AppConfig,
  options: MessageHelperOptions,
): void {
  const run = async (c: Context<AppEnv>, action: MessageAction) => {
    const notice = await actOnMessage(
      config.records,
      c.get('auth').tenant,
      c.req.param('id') ?? '',
      action,
      { sendRate: options.sendRate },
    );
    return hal({ notice });
  };
  const sendPath = `${config.apiPrefix}/messages/:id/send`;
  const schedulePath = `${config.apiPrefix}/messages/:id/schedule`;

  // The spec's send and stop calls have empty bodies: whatever is sent is ignored.
  app.post(sendPath, (c) => run(c, { type: 'send' }));
  app.delete(sendPath, (c) => run(c, { type: 'stop' }));
  app.all(sendPath, methodNotAllowed(['POST', 'DELETE']));

  app.post(schedulePath, async (c) => {
    // 404 before validation, as on updates: a missing message matters more than its body.
    const kind = config.registry.bySingular('message');
    if (kind) await config.records.get(c.get('auth').tenant, kind, c.req.param('id') ?? '');
    // std:control is accepted as on every write; the answer is a notice either way.
    const { rest } = takeControl(await readJsonObject(c));
    // Under a real server's preset, its date-time spellings too (message-schedule.ts).
    const schedule = checkMessageSchedule(rest, config.preset.vocabulary);
    return run(c, { type: 'schedule', schedule });
  });
  app.delete(schedulePath, (c) => run(c, { type: 'unschedule' }));
  app.all(schedulePath, methodNotAllowed(['POST', 'DELETE']));
}
