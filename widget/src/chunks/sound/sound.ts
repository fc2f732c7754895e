// The sound chunk (public/widget/sound-<hash>.js), loaded only on a page that asks for sound
// (data-sound="on"): a short chime when a message arrives while the visitor is not looking.
import type { SoundChunk } from "../../shared/chunk-apis";
import type { ParleyWindow } from "../../shared/global";

function chime(): void {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator(),
      volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.06, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.3);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.3);
    tone.addEventListener("ended", () => void audio.close());
  } catch {
    /* no audio */
  }
}

const SOUND: SoundChunk = { chime };

(window as ParleyWindow).Parley?._chunk?.("sound", SOUND);
