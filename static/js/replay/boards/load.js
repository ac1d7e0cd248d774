// The board drawing of a game's views, by the name the server gives (the engine's
// Game.renderer, in the frames payload and the draft resource): ./<renderer>.js beside
// this file. A game without a drawing of its own is "generic": its views as lists.

export function loadBoard(renderer) {
  const name = /^[a-z0-9-]+$/.test(renderer || "") ? renderer : "generic";
  return import(`./${name}.js`);
}
