import type { Engine, Route } from '../engine.js';
import { str } from '../form.js';

/** Events. */
export function eventsRoutes(engine: Engine): Route[] {
  const { store, listOf } = engine;
  return [
    { method: 'GET', pattern: /^\/v1\/events\/([^/]+)$/, handle: ([id]) => store.get(id!, 'event') },
    {
      method: 'GET',
      pattern: /^\/v1\/events$/,
      handle: (_, form) => {
        const data = store.all('event').filter((e) => !str(form, 'type') || e.type === str(form, 'type')).reverse();
        return listOf('/v1/events', data, form);
      },
    },
  ];
}
