import { useEffect, useRef, useState, type ReactNode, type Ref } from 'react';

const loaded = new Map<() => Promise<unknown>, unknown>();
const loading = new Map<() => Promise<unknown>, Promise<unknown>>();

function loadOnce<M>(load: () => Promise<M>): Promise<M> {
  let promise = loading.get(load) as Promise<M> | undefined;
  if (!promise) {
    promise = load().then((module) => {
      loaded.set(load, module);
      return module;
    });
    loading.set(load, promise);
  }
  return promise;
}

/** A module loaded when first asked for, shared by every component that asks for the same loader. */
export function useOnDemand<M>(load: () => Promise<M>, wanted: boolean): M | null {
  const [module, setModule] = useState<M | null>(() => (loaded.get(load) as M | undefined) ?? null);
  useEffect(() => {
    if (!wanted || module) return;
    let live = true;
    void loadOnce(load).then((m) => live && setModule(() => m));
    return () => {
      live = false;
    };
  }, [load, wanted, module]);
  return module;
}

export interface TriggerProps {
  ref: Ref<HTMLButtonElement>;
  onPointerEnter: () => void;
  onFocus: () => void;
  onClick: () => void;
}

/**
 * A menu or popover whose code loads when the user reaches for its trigger (pointer over, focus, a
 * press) instead of with the page: the signed-in shell's menus, popover and tooltips were a fifth of
 * every screen's first load. Until then `trigger` draws a plain button; once loaded, `render` draws the
 * real thing with the same trigger, open if the button was pressed and focused if it had the focus,
 * so neither a click nor the keyboard notices the swap.
 */
export function OnDemand<M>({
  load,
  trigger,
  render,
}: {
  load: () => Promise<M>;
  trigger: (props: TriggerProps) => ReactNode;
  render: (module: M, start: { open: boolean; focus: boolean }) => ReactNode;
}) {
  const [wanted, setWanted] = useState(false);
  const pressed = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  const module = useOnDemand(load, wanted);
  if (module) return render(module, { open: pressed.current, focus: typeof document !== 'undefined' && document.activeElement === button.current && button.current !== null });
  return trigger({
    ref: button,
    onPointerEnter: () => setWanted(true),
    onFocus: () => setWanted(true),
    onClick: () => {
      pressed.current = true;
      setWanted(true);
    },
  });
}
