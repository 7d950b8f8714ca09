// Sounds (a setting, off unless chosen: data-sound="on" on <html>): made here with the Web Audio
// API, no files: a soft tick for a move, a riffle of noise for a shuffle, four rising notes for
// a win.  The browser lets a page sound only after the player's first click or key.
import { firstFor, grid, pathOf } from "./table.js";

let audio = null;
function sounding() { return document.documentElement.dataset.sound === "on" && (window.AudioContext || window.webkitAudioContext); }
function tone(frequency, start, length, volume) {
  const osc = audio.createOscillator(), gain = audio.createGain(), at = audio.currentTime + start;
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(at);
  osc.stop(at + length);
}
function riffle() {
  const length = Math.floor(audio.sampleRate * 0.18), buffer = audio.createBuffer(1, length, audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) * 0.15;
  const noise = audio.createBufferSource();
  noise.buffer = buffer;
  noise.connect(audio.destination);
  noise.start();
}
export function sound(kind) {
  if (!sounding()) return;
  audio = audio || new (window.AudioContext || window.webkitAudioContext)();
  if (kind === "move") tone(660, 0, 0.06, 0.08);
  else if (kind === "win") [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.12, 0.3, 0.1));
  else if (kind === "shuffle") riffle();
  window.addictionSounds = (window.addictionSounds || []).concat([kind]);  // what was played, for tests
}

// A win sounds once, when it comes (not on a page that opens on a won game); a shuffle when the
// server dealt it.
let wonBefore = false;
const sounded = {};
document.addEventListener("DOMContentLoaded", () => {
  const table = grid();
  wonBefore = !!table && table.dataset.status === "won";
});
document.addEventListener("htmx:afterSettle", (event) => {
  if (!firstFor(event, sounded)) return;
  const table = grid();
  if (!table) return;
  if (table.dataset.status === "won" && !wonBefore) sound("win");
  else if (/\/shuffle\/$/.test(pathOf(event)) && event.detail.xhr && event.detail.xhr.status === 200) sound("shuffle");
  wonBefore = table.dataset.status === "won";
});
