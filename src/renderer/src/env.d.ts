/// <reference path="../../preload/index.d.ts" />
