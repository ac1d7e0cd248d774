// Where each control goes, as pure functions of the frames and the current ply,
// so the keyboard, the buttons and the move list all agree.

/** Clamp a requested ply into 0..last. */
export function clampPly(frames, ply) {
  const n = Number.isFinite(ply) ? Math.trunc(ply) : 0;
  return Math.max(0, Math.min(frames.length - 1, n));
}

export const first = () => 0;
export const last = (frames) => frames.length - 1;
export const next = (frames, ply) => clampPly(frames, ply + 1);
export const prev = (frames, ply) => clampPly(frames, ply - 1);

// A frame's round is the round its action was played in (the setup frame: round 1),
// so "a round" is a run of consecutive frames with the same round number.

function roundStart(frames, ply) {
  let p = ply;
  while (p > 0 && frames[p - 1].round === frames[ply].round) p -= 1;
  return p;
}

/** The first action of the next round (or the last frame when there is none). */
export function nextRound(frames, ply) {
  const round = frames[ply].round;
  for (let p = ply + 1; p < frames.length; p += 1) {
    if (frames[p].round !== round) return p;
  }
  return frames.length - 1;
}

/** The first action of this round; from there, the first action of the round before. */
export function prevRound(frames, ply) {
  const start = roundStart(frames, ply);
  if (start < ply) return start;
  return start === 0 ? 0 : roundStart(frames, start - 1);
}

/** Frames grouped by round, then by phase within the round, in order. */
export function groupByRoundAndPhase(frames) {
  const rounds = [];
  for (const frame of frames) {
    if (frame.ply === 0) continue;
    let round = rounds[rounds.length - 1];
    if (!round || round.round !== frame.round) {
      round = { round: frame.round, phases: [] };
      rounds.push(round);
    }
    let phase = round.phases[round.phases.length - 1];
    if (!phase || phase.phase !== frame.phase) {
      phase = { phase: frame.phase, frames: [] };
      round.phases.push(phase);
    }
    phase.frames.push(frame);
  }
  return rounds;
}
