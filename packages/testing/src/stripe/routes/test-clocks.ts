import { invalid } from '../errors.js';
import type { Engine, Route } from '../engine.js';
import { str } from '../form.js';
import { newId, now } from '../store.js';

/** Test clocks. */
export function testClocksRoutes(engine: Engine): Route[] {
  const { store, emit, advanceSubscription } = engine;
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/test_helpers\/test_clocks$/,
      handle: (_, form) =>
        store.put({
          id: newId('clock'),
          object: 'test_helpers.test_clock',
          frozen_time: Number(str(form, 'frozen_time') ?? now()),
          name: str(form, 'name') ?? null,
          status: 'ready',
          created: now(),
          livemode: false,
        }),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/test_helpers\/test_clocks\/([^/]+)$/,
      handle: ([id]) => store.get(id!, 'test_helpers.test_clock'),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/test_helpers\/test_clocks\/([^/]+)\/advance$/,
      handle: ([id], form) => {
        const clock = store.get(id!, 'test_helpers.test_clock');
        const time = Number(str(form, 'frozen_time'));
        if (!(time > (clock.frozen_time as number))) throw invalid('frozen_time must be after the current time.', 'frozen_time');
        clock.frozen_time = time;
        for (const sub of store.all('subscription')) {
          if (sub.test_clock === clock.id && sub.status !== 'canceled' && sub.status !== 'incomplete') advanceSubscription(sub, time);
        }
        emit('test_helpers.test_clock.ready', clock);
        return clock;
      },
    },
  ];
}
