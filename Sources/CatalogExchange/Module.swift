import IAPCore
