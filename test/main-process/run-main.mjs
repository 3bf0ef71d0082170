// Runs the built main process (out/main/index.js) over fake-electron.mjs, then does what the test
// asks over the IPC channel: emit an app event, click a menu item, close the window, crash the engine.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if (specifier === 'electron') return { url: ${JSON.stringify(new URL('./fake-electron.mjs', import.meta.url).href)}, shortCircuit: true };
      return next(specifier, context);
    }`)}`,
);

// argv as a packaged app has it: the executable, then the launch's own arguments.
process.argv.splice(1, 1);
const { app } = await import('electron');
process.on('message', (command) => {
  if (command.do === 'emit') app.emit(command.event, { preventDefault() {} }, ...command.args);
  if (command.do === 'click') {
    const flat = (items) => items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flat(i.submenu) : [])]);
    flat(globalThis.__fakeMenu)
      .find((i) => i.id === command.id)
      .click();
  }
  if (command.do === 'close-window') {
    globalThis.__fakeWindow.bounds = command.bounds;
    globalThis.__fakeWindow.maximized = command.maximized;
    globalThis.__fakeWindow.emit('close');
  }
  if (command.do === 'crash-engine') globalThis.__fakeChild.emit('exit', 9);
});
await import(process.env.MAIN_ENTRY);
process.send({ type: 'main-loaded' });
