@echo off
rem The `brain` command line of an installed Org Brain (docs/PACKAGING.md [N7]): the bundled CLI
rem run by the app's own Electron as Node, on the app's own workspace unless BRAIN_HOME or --home say
rem otherwise. Add this folder to PATH to type `brain` anywhere.
setlocal
set "RESOURCES=%~dp0.."
if not defined BRAIN_HOME set "BRAIN_HOME=%APPDATA%\org-brain\workspace"
if not defined BRAIN_MODEL_DIR if exist "%RESOURCES%\models" set "BRAIN_MODEL_DIR=%RESOURCES%\models"
set ELECTRON_RUN_AS_NODE=1
"%RESOURCES%\..\Org Brain.exe" "%RESOURCES%\app.asar\out\main\cli.js" %*
