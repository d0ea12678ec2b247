import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTyping, type TypedFrame } from './typing';

describe('the share text typing animation', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const run = (text: string, link: string, reducedMotion = false) => {
    const frames: TypedFrame[] = [];
    const stop = startTyping(text, link, (f) => frames.push(f), { reducedMotion });
    return { frames, last: () => frames[frames.length - 1], stop };
  };

  it('types the text at 80 ms per character', () => {
    const t = run('Hey!', 'http://g/l');
    expect(t.last()).toEqual({ text: '', link: '', done: false });
    vi.advanceTimersByTime(79);
    expect(t.last().text).toBe('');
    vi.advanceTimersByTime(1);
    expect(t.last().text).toBe('H');
    vi.advanceTimersByTime(80 * 2);
    expect(t.last().text).toBe('Hey');
    vi.advanceTimersByTime(80);
    expect(t.last()).toEqual({ text: 'Hey!', link: '', done: false });
  });

  it('then the link at 50 ms per character, and stops when done', () => {
    const t = run('Hi', 'abcd');
    vi.advanceTimersByTime(160);
    expect(t.last()).toEqual({ text: 'Hi', link: '', done: false });
    vi.advanceTimersByTime(49);
    expect(t.last().link).toBe('');
    vi.advanceTimersByTime(1);
    expect(t.last().link).toBe('a');
    vi.advanceTimersByTime(150);
    expect(t.last()).toEqual({ text: 'Hi', link: 'abcd', done: true });
    const count = t.frames.length;
    vi.advanceTimersByTime(10_000);
    expect(t.frames.length).toBe(count);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes 80 ms × text + 50 ms × link in all', () => {
    const text = "I'm giving away 5 dollars!";
    const link = 'http://localhost:3000/link/ada';
    const t = run(text, link);
    vi.advanceTimersByTime(text.length * 80 + link.length * 50 - 1);
    expect(t.last().done).toBe(false);
    vi.advanceTimersByTime(1);
    expect(t.last()).toEqual({ text, link, done: true });
    expect(t.frames.length).toBe(1 + text.length + link.length);
  });

  it('shows everything at once under reduced motion', () => {
    const t = run('Hello', 'http://g/l', true);
    expect(t.frames).toEqual([{ text: 'Hello', link: 'http://g/l', done: true }]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never shows half a character', () => {
    const t = run('a🎁b', '');
    vi.advanceTimersByTime(160);
    expect(t.last().text).toBe('a🎁');
  });

  it('stops typing when stopped (the modal closed or the text changed)', () => {
    const t = run('Hello', 'x');
    vi.advanceTimersByTime(80);
    t.stop();
    vi.advanceTimersByTime(10_000);
    expect(t.last().text).toBe('H');
    expect(vi.getTimerCount()).toBe(0);
  });
});
