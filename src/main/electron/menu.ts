// The application menu: the standard roles plus the data folder and documentation.
import { app, Menu, shell, type MenuItemConstructorOptions } from 'electron';

export function installMenu(dataDir: string): void {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [{ label: 'Open Data Folder', click: () => void shell.openPath(dataDir) }, { type: 'separator' }, isMac ? { role: 'close' } : { role: 'quit' }],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        {
          label: 'SEP-2624: MCP interceptors',
          click: () => void shell.openExternal('https://github.com/modelcontextprotocol/modelcontextprotocol/issues/2624'),
        },
        { label: `Version ${app.getVersion()}`, enabled: false },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
