// The game's sounds, made with the Web Audio API (no files to fetch): a move, a capture,
// check, the end of a game. Off by a switch the page keeps (`chuhe.sound`). Browsers let a
// page sound only after the player has touched it; before that nothing is played.

export type SoundKind = "move" | "capture" | "check" | "end";

let context: AudioContext | null = null;

/** Is sound on (the default)? */
export function soundOn(): boolean {
  return localStorage.getItem("chuhe.sound") !== "off";
}

export function setSoundOn(on: boolean): void {
  localStorage.setItem("chuhe.sound", on ? "on" : "off");
}

// The context is made on the player's first touch or key, as browsers ask.
function wake(): void {
  if (context || typeof AudioContext === "undefined") return;
  try {
    context = new AudioContext();
  } catch {
    context = null;
  }
}
for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, wake, { once: true, capture: true });

/** The notes of each sound: frequency (Hz), start and length (s), loudness. */
const NOTES: Record<SoundKind, [number, number, number, number][]> = {
  move: [[520, 0, 0.07, 0.25]],
  capture: [
    [300, 0, 0.09, 0.35],
    [180, 0.04, 0.12, 0.3],
  ],
  check: [
    [880, 0, 0.1, 0.2],
    [660, 0.11, 0.14, 0.2],
  ],
  end: [
    [523, 0, 0.25, 0.18],
    [659, 0.08, 0.25, 0.16],
    [784, 0.16, 0.35, 0.16],
  ],
};

/** Plays a sound (when sound is on and the page may). The last one asked for is written on
 * the page's `<body data-sound>`, so that a test can see it was asked for. */
export function playSound(kind: SoundKind): void {
  if (!soundOn()) return;
  document.body.dataset.sound = kind;
  const ctx = context;
  if (!ctx) return;
  const now = ctx.currentTime;
  for (const [frequency, start, length, loudness] of NOTES[kind]) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = kind === "capture" ? "triangle" : "sine";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0, now + start);
    gain.gain.linearRampToValueAtTime(loudness, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(now + start);
    oscillator.stop(now + start + length + 0.02);
  }
}
